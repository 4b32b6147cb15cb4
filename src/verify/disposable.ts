import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface DomainList {
  has(domain: string): boolean;
}

/** Written by tools/build-disposable.mjs from mailchecker's list; the same path from src/verify and dist/verify. */
const BUILT_LIST = new URL('../../dist/verify/disposable-domains.txt', import.meta.url);

let domains: DomainList | undefined;
let origin: 'built' | 'mailchecker' | undefined;

/**
 * mailchecker's list (about 56,000 domains, kept up to date by its maintainers), loaded on first use: as written at
 * build time when that was from the mailchecker installed now, else (a newer one, or no build) from mailchecker.
 */
function list(): DomainList {
  if (!domains) {
    const require = createRequire(import.meta.url);
    domains = builtList(installedVersion(require));
    origin = domains ? 'built' : 'mailchecker';
    domains ??= (require('mailchecker/platform/node') as { blacklist(): Set<string> }).blacklist();
  }
  return domains;
}

/** Where the list came from, once loaded: the build's copy, or mailchecker itself (slower to load). */
export function disposableListOrigin(): 'built' | 'mailchecker' | undefined {
  return origin;
}

function installedVersion(require: NodeJS.Require): string | undefined {
  try {
    return (require('mailchecker/package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function builtList(version: string | undefined): DomainList | undefined {
  if (version === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(BUILT_LIST, 'utf8');
  } catch {
    return undefined;
  }
  const firstLine = text.indexOf('\n');
  if (firstLine < 0 || text.slice(0, firstLine) !== `mailchecker ${version}`) return undefined;
  return new SortedLines(text, firstLine + 1);
}

/**
 * Sorted lines of one string, searched by halving: a few ms to load where a Set of 56,000 strings takes about 50,
 * and a lookup costs 16 short comparisons (the engine asks once a domain).
 */
class SortedLines implements DomainList {
  /** Where each line starts, and one past the last line's newline. */
  private readonly starts: Int32Array;

  constructor(
    private readonly text: string,
    from: number,
  ) {
    let lines = 0;
    for (let at = text.indexOf('\n', from); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
    this.starts = new Int32Array(lines + 1);
    this.starts[0] = from;
    let line = 0;
    for (let at = text.indexOf('\n', from); at >= 0; at = text.indexOf('\n', at + 1)) this.starts[++line] = at + 1;
  }

  has(domain: string): boolean {
    let low = 0;
    let high = this.starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const line = this.text.slice(this.starts[middle], (this.starts[middle + 1] as number) - 1);
      if (line === domain) return true;
      if (line < domain) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
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
