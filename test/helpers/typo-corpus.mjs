// A corpus of mistyped and correct addresses for typo suggestions, drawn from a seed (test/verify/typo-corpus.test.ts
// and bench/typo.mjs use it): keyboard slips of the domains people mean, each with the address intended, mixed with
// correct addresses that must get no suggestion (the domains meant, real look-alikes, ordinary companies' domains).
// Plain JavaScript, so the bench runs it as it is; the seeded draw is the sandbox's (built into dist/).
import { mulberry32 } from '../../dist/sandbox/faults.js';

// The keyboard the slips are made on, its own copy: the corpus does not borrow the code's idea of a neighbour.
const ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

function neighboursOf(key) {
  const r = ROWS.findIndex((row) => row.includes(key));
  if (r < 0) return [];
  const c = ROWS[r].indexOf(key);
  const near = [ROWS[r][c - 1], ROWS[r][c + 1], ROWS[r - 1]?.[c], ROWS[r - 1]?.[c + 1], ROWS[r + 1]?.[c - 1]];
  return [...near, ROWS[r + 1]?.[c]].filter(Boolean);
}

// Each kind of slip made on a word at a drawn place; undefined where it cannot be made there.
const SLIPS = {
  neighbour: (w, i, pick) => {
    const near = neighboursOf(w[i]);
    return near.length ? w.slice(0, i) + pick(near) + w.slice(i + 1) : undefined;
  },
  omission: (w, i) => (w.length > 1 ? w.slice(0, i) + w.slice(i + 1) : undefined),
  extra: (w, i, pick) => {
    const near = neighboursOf(w[i]);
    return near.length ? w.slice(0, i + 1) + pick(near) + w.slice(i + 1) : undefined;
  },
  doubled: (w, i) => w.slice(0, i + 1) + w.slice(i),
  swap: (w, i) =>
    i + 1 < w.length && w[i] !== w[i + 1] ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : undefined,
};

const FIRST =
  'ann bob carlos dana emma felix grace hugo ines jack kim lena marco nina omar paula quinn rosa sam tom'.split(' ');
const LAST = 'smith muller rossi dupont garcia novak kowalski silva jones tanaka brown martin weber costa'.split(' ');

function localPart(pick, draw) {
  const first = pick(FIRST);
  const last = pick(LAST);
  const forms = [
    first,
    `${first}.${last}`,
    `${first}${last}`,
    `${first[0]}${last}`,
    `${first}_${last}${(draw() * 99) | 0}`,
  ];
  return pick(forms);
}

/**
 * `perKind` slips of each kind for each domain meant (in its name, and in its TLD: `.con`, `.cmo`, `.co`, `.nte`),
 * dropping those that are a real domain (`isReal`); then the correct addresses: the domains meant, `realDomains` and
 * `companies` ordinary company domains.
 */
export function typoCorpus({ meant, realDomains, isReal, seed, perKind = 3, companies = 300 }) {
  const draw = mulberry32(seed);
  const pick = (items) => items[Math.floor(draw() * items.length)];
  const typos = [];
  const seen = new Set();
  for (const domain of meant) {
    const dot = domain.indexOf('.');
    const [name, suffix] = [domain.slice(0, dot), domain.slice(dot)];
    const lastDot = domain.lastIndexOf('.');
    const [head, tld] = [domain.slice(0, lastDot + 1), domain.slice(lastDot + 1)];
    for (const [kind, slip] of Object.entries(SLIPS)) {
      for (const where of ['name', 'tld']) {
        // As many slips in the name as of each kind, and as many in the TLD as of one kind (of any kind there).
        if (where === 'tld' && kind !== 'neighbour') continue;
        for (let n = 0, tries = 0; n < perKind && tries < 40; tries++) {
          const slipped = where === 'name' ? slipIn(name, slip, draw, pick) : slipIn(tld, pickSlip(pick), draw, pick);
          const typedDomain = where === 'name' ? slipped + suffix : head + slipped;
          if (slipped === undefined || typedDomain === domain || isReal(typedDomain) || seen.has(typedDomain)) continue;
          seen.add(typedDomain);
          const local = localPart(pick, draw);
          typos.push({
            address: `${local}@${typedDomain}`,
            intended: `${local}@${domain}`,
            kind: where === 'tld' ? 'tld' : kind,
          });
          n++;
        }
      }
    }
  }
  const correct = [...new Set([...meant, ...realDomains, ...companyDomains(draw, pick, companies)])].map(
    (domain) => `${localPart(pick, draw)}@${domain}`,
  );
  return { typos, correct };
}

function slipIn(word, slip, draw, pick) {
  const made = slip(word, Math.floor(draw() * word.length), pick);
  return made && !made.startsWith('-') && !made.endsWith('-') ? made : undefined;
}

function pickSlip(pick) {
  return SLIPS[pick(Object.keys(SLIPS))];
}

// Ordinary companies' domains: words put together as businesses name themselves, on the TLDs they use, and some
// well-known companies' own (short names among them, as short as a provider's).
const WORDS = `
  acme apex atlas aurora beacon birch bright bridge cascade cedar central civic clear coastal cobalt copper crest
  crown delta drift eagle echo ember evergreen falcon fern field first forge frontier garden glacier global granite
  green grove harbor harvest haven highland horizon hudson iron island ivory jade juniper keystone lake landmark
  laurel legacy liberty lighthouse linden lumen maple marble meadow meridian metro midway mill modern monarch mosaic
  north nova oak ocean olive orbit orchard pacific park peak pine pioneer pixel prairie prime quarry radiant rapid
  raven redwood ridge river rock royal sage sail sierra silver solar spark spring spruce star sterling stone summit
  sun swift terra thistle timber titan trail true union unity valley vantage vector verde vertex vista willow wind
  wolf zenith
`
  .split(/\s+/)
  .filter(Boolean);
const TRADES = `
  analytics bakery builders capital clinic consulting dental design digital energy engineering farms foods group
  health homes insurance labs law legal logistics media motors partners pharma press realty solutions studio supply
  systems tech travel ventures works
`
  .split(/\s+/)
  .filter(Boolean);
const TLDS = [
  'com',
  'com',
  'com',
  'com',
  'com',
  'net',
  'org',
  'io',
  'co',
  'de',
  'fr',
  'it',
  'co.uk',
  'ca',
  'com.au',
  'nl',
];
const WELL_KNOWN = `
  ibm.com ups.com hp.com bmw.de sap.com bbc.co.uk cnn.com aig.com amd.com intel.com apple.com google.com
  microsoft.com amazon.com siemens.de bosch.de basf.com allianz.de axa.fr total.fr renault.fr enel.it eni.com
  fiat.it unicredit.it shopify.com stripe.com github.com slack.com zoom.us dropbox.com adobe.com oracle.com
  cisco.com dell.com nike.com ikea.com hm.com lego.com bp.com kpmg.com ey.com pwc.com att.com ge.com ms.com
  acme-corp.com contoso.com fabrikam.com example.com example.org university.edu
`
  .split(/\s+/)
  .filter(Boolean);

function companyDomains(draw, pick, count) {
  const domains = new Set(WELL_KNOWN);
  while (domains.size < count) {
    const shape = draw();
    const name =
      shape < 0.45
        ? pick(WORDS) + pick(WORDS)
        : shape < 0.7
          ? pick(WORDS) + pick(TRADES)
          : shape < 0.85
            ? `${pick(WORDS)}-${pick(TRADES)}`
            : pick(WORDS);
    domains.add(`${name}.${pick(TLDS)}`);
  }
  return [...domains];
}
