import { isDisposableDomain, isFreeProvider } from './lists.js';

/**
 * Domains people mistype most, most popular first (when two are one edit away, the earlier one wins). A
 * domain in this list is never corrected.
 */
export const COMMON_DOMAINS: readonly string[] = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'aol.com',
  'live.com',
  'msn.com',
  'googlemail.com',
  'hotmail.co.uk',
  'yahoo.co.uk',
  'hotmail.fr',
  'yahoo.fr',
  'me.com',
  'mac.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  't-online.de',
  'mail.ru',
  'yandex.ru',
  'yandex.com',
  'mail.com',
  'proton.me',
  'protonmail.com',
  'zoho.com',
  'ymail.com',
  'rocketmail.com',
  'fastmail.com',
  'qq.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'wanadoo.fr',
];

/** Top-level domains that do not exist but are one slip away from `com`, `net` or `org`. */
export const TLD_FIXES: Readonly<Record<string, string>> = {
  con: 'com',
  cmo: 'com',
  cpm: 'com',
  comm: 'com',
  coom: 'com',
  xom: 'com',
  vom: 'com',
  ocm: 'com',
  c0m: 'com',
  cim: 'com',
  ckm: 'com',
  clm: 'com',
  cop: 'com',
  ney: 'net',
  nte: 'net',
  nett: 'net',
  ogr: 'org',
  orgg: 'org',
  prg: 'org',
  rog: 'org',
};

const common: ReadonlySet<string> = new Set(COMMON_DOMAINS);
/**
 * Providers whose name has fewer than five letters (aol, msn, me, mac, gmx, qq, live, ...) sit one edit
 * away from real companies (aon.com, ms.com, ge.com, msi.com, max.com): they are never typo targets.
 */
const TYPO_TARGETS: readonly string[] = COMMON_DOMAINS.filter((d) => d.indexOf('.') >= 5);
/** Only a slip in one of these counts when nothing but the TLD differs: hotmail.fi is not a typo of hotmail.fr. */
const SLIPPABLE_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org']);

/**
 * The domain a mistyped one was meant to be (`gmial.com` -> `gmail.com`, `yaho.com` -> `yahoo.com`,
 * `gmail.co` -> `gmail.com`, `example.con` -> `example.com`, `gmaill.con` -> `gmail.com`), or undefined.
 * First fixes a TLD that does not exist (`TLD_FIXES`), then looks for a common provider one edit away (a
 * transposition counts as one). Known providers (`COMMON_DOMAINS`, `FREE_PROVIDERS`) are never corrected
 * and a disposable domain is never suggested. Takes the ASCII, lower-case domain.
 */
export function suggestDomain(domain: string): string | undefined {
  if (isKnownProvider(domain)) return undefined;
  const tldFixed = fixTld(domain);
  const suggestion = isKnownProvider(tldFixed)
    ? tldFixed
    : (nearestProvider(tldFixed) ?? (tldFixed === domain ? undefined : tldFixed));
  return suggestion === undefined || isDisposableDomain(suggestion) ? undefined : suggestion;
}

function isKnownProvider(domain: string): boolean {
  return common.has(domain) || isFreeProvider(domain);
}

function fixTld(domain: string): string {
  const dot = domain.lastIndexOf('.');
  const fix = dot > 0 ? TLD_FIXES[domain.slice(dot + 1)] : undefined;
  return fix ? `${domain.slice(0, dot)}.${fix}` : domain;
}

function nearestProvider(domain: string): string | undefined {
  const dot = domain.lastIndexOf('.');
  for (const candidate of TYPO_TARGETS) {
    if (Math.abs(candidate.length - domain.length) > 1 || distance(domain, candidate, 1) > 1) continue;
    const candidateDot = candidate.lastIndexOf('.');
    const onlyTldDiffers = domain.slice(0, dot) === candidate.slice(0, candidateDot);
    if (onlyTldDiffers && !SLIPPABLE_TLDS.has(candidate.slice(candidateDot + 1))) continue;
    return candidate;
  }
  return undefined;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), or `max + 1` as soon
 * as it is known to exceed `max`.
 */
export function distance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}
