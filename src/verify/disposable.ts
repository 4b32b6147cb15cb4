import { createRequire } from 'node:module';

let domains: ReadonlySet<string> | undefined;

/** mailchecker's list (about 55,000 domains, kept up to date by its maintainers), loaded on first use. */
function list(): ReadonlySet<string> {
  if (!domains) {
    const require = createRequire(import.meta.url);
    const checker = require('mailchecker/platform/node') as { blacklist(): Set<string> };
    domains = checker.blacklist();
  }
  return domains;
}

/** True for a listed domain and for any subdomain of one (`x.mailinator.com`). */
export function isDisposableDomain(asciiDomain: string): boolean {
  const set = list();
  let domain = asciiDomain.toLowerCase();
  for (;;) {
    if (set.has(domain)) return true;
    const dot = domain.indexOf('.');
    if (dot < 0) return false;
    domain = domain.slice(dot + 1);
    // A bare TLD is never listed on its own, and stopping here keeps "com" from ever matching.
    if (!domain.includes('.')) return false;
  }
}
