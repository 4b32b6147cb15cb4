export { isDisposableDomain } from './disposable.js';
export { PROVIDERS, type Provider } from './provider-hosts.js';

export function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** Local parts that name a function, not a person (RFC 2142's, then their kin); compared without `+tag`, `.-_`. */
export const ROLE_ACCOUNTS: readonly string[] = words(`
  abuse ftp hostmaster info marketing news noc postmaster sales security support usenet uucp webmaster www
  accounting accounts admin administrator billing careers compliance contact customerservice devnull donotreply
  enquiries feedback hello help helpdesk hr inquiries invoice invoices it jobs legal list listserv mail mailerdaemon
  majordomo media newsletter nobody noreply office orders press privacy recruitment root service spam team
`);

export const FREE_PROVIDERS: readonly string[] = words(`
  gmail.com googlemail.com yahoo.com yahoo.co.uk yahoo.fr yahoo.de yahoo.co.jp yahoo.co.in ymail.com rocketmail.com
  outlook.com hotmail.com hotmail.co.uk hotmail.fr hotmail.de hotmail.it live.com msn.com icloud.com me.com mac.com
  aol.com aim.com gmx.com gmx.de gmx.net gmx.at gmx.ch web.de t-online.de mail.ru inbox.ru list.ru bk.ru rambler.ru
  yandex.ru yandex.com ya.ru proton.me protonmail.com pm.me zoho.com zohomail.com mail.com email.com fastmail.com
  tutanota.com tuta.io hushmail.com qq.com 163.com 126.com sina.com naver.com daum.net hanmail.net rediffmail.com
  orange.fr free.fr laposte.net libero.it seznam.cz wp.pl o2.pl interia.pl comcast.net verizon.net att.net
  sbcglobal.net
`);

const roles: ReadonlySet<string> = new Set(ROLE_ACCOUNTS);
const free: ReadonlySet<string> = new Set(FREE_PROVIDERS);

const START_LETTERS = 4;

/** The first letters of every role name (see asciiStart): they tell nearly every person's local part apart cheaply. */
const ROLE_STARTS = startTable(ROLE_ACCOUNTS.map(asciiStart));

export function isRoleAccount(local: string): boolean {
  const start = asciiStart(local);
  if (start >= 0 && !isRoleStart(start)) return false;
  let name = local;
  if (name.charCodeAt(0) === 34 /* " */) return false;
  const plus = name.indexOf('+');
  if (plus > 0) name = name.slice(0, plus);
  name = name.toLowerCase().replace(/[._-]/g, '');
  return roles.has(name);
}

export function roleAccountByStart(bytes: Uint8Array, start: number, end: number): false | undefined {
  let letters = 0;
  let taken = 0;
  for (let i = start; i < end && taken < START_LETTERS; i++) {
    let c = bytes[i] as number;
    if (c === 43 /* + */) break;
    if (c === 46 || c === 95 || c === 45) continue;
    if (c >= 0x80) return undefined;
    if (c >= 65 && c <= 90) c += 32;
    letters = letters * 128 + c;
    taken++;
  }
  return isRoleStart(letters) ? undefined : false;
}

/** The role names' starts in an open-addressing table a quarter full: cheaper to probe than a Set. */
function startTable(starts: number[]): Int32Array {
  const table = new Int32Array(4 * 2 ** Math.ceil(Math.log2(starts.length)));
  const mask = table.length - 1;
  for (const start of starts) {
    let slot = Math.imul(start, 0x9e3779b1) >>> 20;
    while (table[slot & mask] !== 0 && table[slot & mask] !== start) slot++;
    table[slot & mask] = start;
  }
  return table;
}

function isRoleStart(start: number): boolean {
  const mask = ROLE_STARTS.length - 1;
  for (let slot = Math.imul(start, 0x9e3779b1) >>> 20; ; slot++) {
    const there = ROLE_STARTS[slot & mask] as number;
    // No role's start is 0 (an empty name): it marks a free slot.
    if (there === 0) return false;
    if (there === start) return true;
  }
}

export function isFreeProvider(asciiDomain: string): boolean {
  return free.has(asciiDomain.toLowerCase());
}

/** The name's first letters in base 128; -1 for non-ASCII (which may lower-case to ASCII), 0 for none. */
function asciiStart(local: string): number {
  let start = 0;
  let taken = 0;
  for (let i = 0; i < local.length && taken < START_LETTERS; i++) {
    let c = local.charCodeAt(i);
    if (c === 43 /* + */) break;
    if (c === 46 || c === 95 || c === 45) continue;
    if (c >= 0x80) return -1;
    if (c >= 65 && c <= 90) c += 32;
    start = start * 128 + c;
    taken++;
  }
  return start;
}
