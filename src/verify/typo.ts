import { isDisposableDomain, isFreeProvider, words } from './lists.js';

/** Domains people mistype most, most popular first (the earlier wins a tie); never corrected themselves. */
export const COMMON_DOMAINS: readonly string[] = words(`
  gmail.com yahoo.com hotmail.com outlook.com icloud.com aol.com live.com msn.com googlemail.com hotmail.co.uk
  yahoo.co.uk hotmail.fr yahoo.fr me.com mac.com gmx.com gmx.de gmx.net web.de t-online.de mail.ru yandex.ru
  yandex.com mail.com proton.me protonmail.com zoho.com ymail.com rocketmail.com fastmail.com qq.com comcast.net
  verizon.net att.net sbcglobal.net orange.fr free.fr laposte.net libero.it wanadoo.fr
`);

/** Top-level domains that do not exist but are one slip away from `com`, `net` or `org`. */
const SLIPS_OF: Record<string, string> = {
  com: 'con cmo cpm comm coom xom vom ocm c0m cim ckm clm cop',
  net: 'ney nte nett',
  org: 'ogr orgg prg rog',
};

const TLD_FIXES = new Map(
  Object.entries(SLIPS_OF).flatMap(([tld, slips]) => words(slips).map((slip) => [slip, tld] as const)),
);

const common: ReadonlySet<string> = new Set(COMMON_DOMAINS);
/** Providers with names under five letters sit one edit from real companies (aon.com, ms.com): never targets. */
const TYPO_TARGETS: readonly string[] = COMMON_DOMAINS.filter((d) => d.indexOf('.') >= 5);
/** Only a slip in one of these counts when nothing but the TLD differs: hotmail.fi is not a typo of hotmail.fr. */
const SLIPPABLE_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org']);

/** `gmial.com` -> `gmail.com`, `example.con` -> `example.com`: a TLD fix, then a common provider one edit away. */
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
  const fix = dot > 0 ? TLD_FIXES.get(domain.slice(dot + 1)) : undefined;
  return fix ? `${domain.slice(0, dot)}.${fix}` : domain;
}

function nearestProvider(domain: string): string | undefined {
  const dot = domain.lastIndexOf('.');
  for (const candidate of TYPO_TARGETS) {
    if (!withinOneEdit(domain, candidate)) continue;
    const candidateDot = candidate.lastIndexOf('.');
    const onlyTldDiffers = domain.slice(0, dot) === candidate.slice(0, candidateDot);
    if (onlyTldDiffers && !SLIPPABLE_TLDS.has(candidate.slice(candidateDot + 1))) continue;
    return candidate;
  }
  return undefined;
}

export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === a.length || i === b.length) return true;
  if (a.length > b.length) return a.slice(i + 1) === b.slice(i);
  if (a.length < b.length) return b.slice(i + 1) === a.slice(i);
  if (a.slice(i + 1) === b.slice(i + 1)) return true;
  return (
    a.charCodeAt(i) === b.charCodeAt(i + 1) &&
    a.charCodeAt(i + 1) === b.charCodeAt(i) &&
    a.slice(i + 2) === b.slice(i + 2)
  );
}
