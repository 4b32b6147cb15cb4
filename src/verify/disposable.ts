import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface DomainList {
  has(domain: string): boolean;
}

/** Written by tools/build-disposable.mjs from mailchecker's list; the single executable carries it as an asset. */
const BUILT_LIST = 'disposable-domains.txt';

let domains: DomainList | undefined;
let origin: 'built' | 'mailchecker' | undefined;

/**
 * mailchecker's list, loaded on first use: the build's copy when it came from the mailchecker installed now, else
 * mailchecker itself. The release bundle and the single executable have only the copy.
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

/** Lookups answered by halving before the hash table is built: a short list never pays for building it. */
const HALVING_LOOKUPS = 30_000;

/**
 * The sorted lines of one string as a set, compared in place so no lookup makes a string: halving at first, then a
 * hash table of line numbers over the text.
 */
class LineSet implements DomainList {
  private lookups = 0;
  private table: { starts: Int32Array; slots: Int32Array; mask: number } | undefined;

  constructor(
    private readonly text: string,
    private readonly from: number,
  ) {}

  has(name: string): boolean {
    if (this.table === undefined && ++this.lookups <= HALVING_LOOKUPS) return this.halve(name);
    this.table ??= hashTable(this.text, this.from);
    const { starts, slots, mask } = this.table;
    for (let slot = hash(name, 0, name.length) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const index = (slots[slot] as number) - 1;
      if (compareLine(this.text, starts[index] as number, (starts[index + 1] as number) - 1, name) === 0) return true;
    }
    return false;
  }

  /** Binary search over character offsets: `low` is always a line's start, `high` one past the last candidate's. */
  private halve(name: string): boolean {
    const { text } = this;
    let low = this.from;
    let high = text.length;
    while (low < high) {
      const start = text.lastIndexOf('\n', ((low + high) >>> 1) - 1) + 1;
      const newline = text.indexOf('\n', start);
      const end = newline < 0 ? text.length : newline;
      const order = compareLine(text, start, end, name);
      if (order === 0) return true;
      if (order < 0) low = end + 1;
      else high = start;
    }
    return false;
  }
}

/** Where each line from `from` starts (and one past the last), and their line numbers + 1 hashed into slots. */
function hashTable(text: string, from: number): { starts: Int32Array; slots: Int32Array; mask: number } {
  let lines = 0;
  for (let at = text.indexOf('\n', from); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  const starts = new Int32Array(lines + 1);
  starts[0] = from;
  let line = 0;
  for (let at = text.indexOf('\n', from); at >= 0; at = text.indexOf('\n', at + 1)) starts[++line] = at + 1;
  const slots = new Int32Array(2 ** Math.ceil(Math.log2(lines * 2 + 1)));
  const mask = slots.length - 1;
  for (let index = 0; index < lines; index++) {
    let slot = hash(text, starts[index] as number, (starts[index + 1] as number) - 1) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = index + 1;
  }
  return { starts, slots, mask };
}

/** The line `text[start, end)` against `name`, in the order of JavaScript's sort (UTF-16 code units). */
function compareLine(text: string, start: number, end: number, name: string): number {
  const length = Math.min(end - start, name.length);
  for (let i = 0; i < length; i++) {
    const difference = text.charCodeAt(start + i) - name.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return end - start - name.length;
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
