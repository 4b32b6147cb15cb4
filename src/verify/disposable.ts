import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface DomainList {
  has(domain: string): boolean;
}

/**
 * Written by tools/build-disposable.mjs from mailchecker's list. The same path from src/verify, dist/verify and the
 * release bundle's dist/chunks; the single executable carries it as an asset.
 */
const BUILT_LIST = 'disposable-domains.txt';

let domains: DomainList | undefined;
let origin: 'built' | 'mailchecker' | undefined;

/**
 * mailchecker's list (about 56,000 domains, kept up to date by its maintainers), loaded on first use: as written at
 * build time when that was from the mailchecker installed now, else (a newer one, or no build) from mailchecker. The
 * release bundle and the single executable have no mailchecker beside them: their copy is the list.
 */
function list(): DomainList {
  if (!domains) {
    const require = createRequire(import.meta.url);
    const version = installedVersion(require);
    domains = builtList(version);
    origin = domains ? 'built' : 'mailchecker';
    if (!domains && version === undefined) throw new Error(`this build of mailclean lacks ${BUILT_LIST}`);
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
  const text = builtText();
  const firstLine = text?.indexOf('\n') ?? -1;
  if (text === undefined || firstLine < 0) return undefined;
  if (version !== undefined && text.slice(0, firstLine) !== `mailchecker ${version}`) return undefined;
  return new LineSet(text, firstLine + 1);
}

function builtText(): string | undefined {
  const sea = process.getBuiltinModule('node:sea');
  if (sea?.isSea()) return sea.getAsset(BUILT_LIST, 'utf8');
  try {
    return readFileSync(new URL(`../../dist/verify/${BUILT_LIST}`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The lines of one string as a set: a hash table of line numbers over the text, so neither loading (about 20 ms,
 * where a Set of 56,000 strings takes about 50) nor a lookup (one hash, a comparison in place) makes a string. A
 * lookup costs about twice a Set's, once a domain.
 */
class LineSet implements DomainList {
  /** Where each line starts, and one past the last line's newline. */
  private readonly starts: Int32Array;
  /** Line number + 1 in each slot (0: free), at least half of them free. */
  private readonly slots: Int32Array;
  private readonly mask: number;

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
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(lines * 2 + 1)));
    this.mask = this.slots.length - 1;
    for (let index = 0; index < lines; index++) {
      let slot = hash(text, this.starts[index] as number, (this.starts[index + 1] as number) - 1) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = index + 1;
    }
  }

  has(name: string): boolean {
    for (let slot = hash(name, 0, name.length) & this.mask; this.slots[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.lineIs((this.slots[slot] as number) - 1, name)) return true;
    }
    return false;
  }

  private lineIs(index: number, name: string): boolean {
    const start = this.starts[index] as number;
    if ((this.starts[index + 1] as number) - 1 - start !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (this.text.charCodeAt(start + i) !== name.charCodeAt(i)) return false;
    return true;
  }
}

/** FNV-1a over the characters of `text` from `start` to `end`. */
function hash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
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
