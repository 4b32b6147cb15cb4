/**
 * Domains people mistype most, most popular first (ties in distance go to the earlier one). A domain
 * in this list is never corrected.
 */
export const COMMON_DOMAINS: readonly string[] = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'aol.com', 'live.com', 'msn.com',
  'googlemail.com', 'hotmail.co.uk', 'yahoo.co.uk', 'hotmail.fr', 'yahoo.fr', 'me.com', 'mac.com',
  'gmx.com', 'gmx.de', 'gmx.net', 'web.de', 't-online.de', 'mail.ru', 'yandex.ru', 'yandex.com', 'mail.com',
  'proton.me', 'protonmail.com', 'zoho.com', 'ymail.com', 'rocketmail.com', 'fastmail.com', 'qq.com',
  'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'orange.fr', 'free.fr', 'laposte.net',
  'libero.it', 'wanadoo.fr',
];

/** Top-level domains that do not exist but are one slip away from `com`, `net` or `org`. */
export const TLD_FIXES: Readonly<Record<string, string>> = {
  con: 'com', cmo: 'com', cpm: 'com', comm: 'com', coom: 'com', xom: 'com', vom: 'com', ocm: 'com',
  c0m: 'com', cim: 'com', ckm: 'com', clm: 'com', cop: 'com',
  ney: 'net', nte: 'net', nett: 'net',
  ogr: 'org', orgg: 'org', prg: 'org', rog: 'org',
};

const common: ReadonlySet<string> = new Set(COMMON_DOMAINS);

/**
 * A likely intended domain for a mistyped one (`gmial.com` -> `gmail.com`, `yaho.com` -> `yahoo.com`,
 * `gmail.co` -> `gmail.com`, `example.con` -> `example.com`), or undefined. Matches common domains within
 * an edit distance of 2 (1 for domains shorter than 8 characters; a transposition counts as one edit),
 * then fixes a non-existent TLD. Takes the ASCII, lower-case domain.
 */
export function suggestDomain(domain: string): string | undefined {
  if (common.has(domain)) return undefined;
  const limit = domain.length < 8 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of COMMON_DOMAINS) {
    if (Math.abs(candidate.length - domain.length) >= bestDistance) continue;
    const d = distance(domain, candidate, bestDistance - 1);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
      if (d === 1) break;
    }
  }
  if (best) return best;
  const dot = domain.lastIndexOf('.');
  if (dot > 0) {
    const fix = TLD_FIXES[domain.slice(dot + 1)];
    if (fix) return `${domain.slice(0, dot)}.${fix}`;
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
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
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
