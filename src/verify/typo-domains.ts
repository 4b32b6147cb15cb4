// What typo suggestions know: the domains people mean, the real domains a slip of them can land on, and which
// top-level domains exist. Sources: public counts of the domains mailing lists hold most (the global providers,
// then each country's ISPs and free mail), mailcheck's default domains, the typo-squatted domains on the disposable
// list (what people actually type: gmial.com, hotmial.com, yahooo.com) and IANA's root zone database for the TLDs.
import { words } from './lists.js';

/**
 * Domains a mistyped address is corrected to, most addresses first: the first thirty are the ones lists hold most
 * (the corpus test's and the benchmark's first corpus); the rest are national ISPs and free mail.
 */
export const TARGET_DOMAINS: readonly string[] = words(`
  gmail.com yahoo.com hotmail.com aol.com outlook.com icloud.com comcast.net live.com msn.com hotmail.co.uk
  yahoo.co.uk googlemail.com me.com web.de gmx.de t-online.de orange.fr libero.it btinternet.com sbcglobal.net
  verizon.net att.net shaw.ca bigpond.com hotmail.fr wanadoo.fr free.fr mail.ru yandex.ru yahoo.fr

  ymail.com mac.com gmx.net gmx.com mail.com bellsouth.net cox.net charter.net earthlink.net optonline.net
  rocketmail.com protonmail.com proton.me zoho.com fastmail.com yandex.com rambler.ru inbox.ru list.ru bk.ru
  sky.com virginmedia.com ntlworld.com talktalk.net blueyonder.co.uk sfr.fr laposte.net neuf.fr freenet.de arcor.de
  virgilio.it tiscali.it alice.it hotmail.it yahoo.it hotmail.es yahoo.es telefonica.net hotmail.de yahoo.de
  rogers.com sympatico.ca videotron.ca telus.net yahoo.ca hotmail.ca optusnet.com.au bigpond.net.au
  yahoo.com.au xtra.co.nz qq.com 163.com 126.com sina.com naver.com hanmail.net daum.net rediffmail.com
  yahoo.co.in uol.com.br bol.com.br terra.com.br yahoo.com.br hotmail.com.br seznam.cz wp.pl onet.pl o2.pl
  interia.pl ziggo.nl home.nl planet.nl kpnmail.nl telenet.be skynet.be bluewin.ch
`);

/**
 * Real domains a slip of a target can land on: never corrected, never suggested. Other countries' Hotmail, Live,
 * Yahoo and Outlook, other providers, and companies a letter from a provider's name.
 */
export const REAL_LOOK_ALIKES: readonly string[] = words(`
  email.com mail.de email.it email.cz gmx.at gmx.ch gmx.us gmx.fr gmx.co.uk aim.com aol.de aol.fr aol.co.uk
  live.fr live.de live.it live.nl live.be live.ca live.co.uk live.com.au live.se live.dk live.no live.at live.ie
  hotmail.be hotmail.nl hotmail.se hotmail.no hotmail.dk hotmail.fi hotmail.gr hotmail.ch hotmail.at hotmail.co.jp
  yahoo.dk yahoo.se yahoo.no yahoo.gr yahoo.ie yahoo.co.jp yahoo.com.ar yahoo.com.mx yahoo.co.id yahoo.com.sg
  yahoo.com.ph yahoo.com.tw yahoo.com.hk yahoo.co.nz yahoo.co.za yahoo.com.vn yahoo.in yahoo.pl yahoo.ro yahoo.at
  outlook.de outlook.fr outlook.it outlook.es outlook.be outlook.jp outlook.com.br windowslive.com web.com
  orange.com orange.es orange.pl orange.ro ya.ru yandex.ua yandex.by yandex.kz inbox.lv inbox.com sky.de sky.it
  shaw.com att.com cox.com aon.com aon.at ms.com ge.com msi.com max.com cloud.com tin.it tim.it iol.it inwind.it
  bol.com uol.com terra.es terra.com o2.co.uk o2.de wp.com op.pl vp.pl sina.cn 139.com q.com planet.com
  charter.com comcast.com verizon.com
`);

/** Every country-code TLD in the root zone: a brand's national domain lives under one of these. */
export const COUNTRY_TLDS: ReadonlySet<string> = new Set(
  words(`
  ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo bq br bs bt bv bw by bz
  ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj fk fm fo fr
  ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo
  jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms
  mt mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs
  ru rw sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv
  tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw
`),
);

/** Top-level domains that do not exist but are one slip from `com`, `net` or `org`: fixed on any domain. */
const SLIPS_OF: Record<string, string> = {
  com: 'con cmo cpm comm coom ccom cim ckm clm cpom xom vom ocm c0m cok coj cop comn vcom xcom',
  net: 'ney nte nett nwt nrt ner nzt nnet neet ent',
  org: 'ogr orgg prg rog otg irg orh oeg',
};

export const TLD_SLIPS: ReadonlyMap<string, string> = new Map(
  Object.entries(SLIPS_OF).flatMap(([tld, slips]) => words(slips).map((slip) => [slip, tld] as const)),
);

/** Each key's neighbours on a QWERTY keyboard, digits included: a slip onto one is the likeliest kind. */
const ROWS = ['1234567890-', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm,.'];

export const NEIGHBOURS: ReadonlyMap<string, string> = new Map(
  ROWS.flatMap((row, r) =>
    [...row].map((key, c) => {
      const near = [
        row[c - 1],
        row[c + 1],
        ROWS[r - 1]?.[c],
        ROWS[r - 1]?.[c + 1],
        ROWS[r + 1]?.[c - 1],
        ROWS[r + 1]?.[c],
      ];
      return [key, near.join('')] as const;
    }),
  ),
);
