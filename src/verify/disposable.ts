import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface DomainList {
  has(domain: string): boolean;
}

/** Written by tools/build-disposable.mjs from mailchecker's list, sorted; the single executable carries it. */
const BUILT_LIST = 'disposable-domains.txt';

let domains: DomainList | undefined;
let origin: 'built' | 'mailchecker' | undefined;

/** The build's copy when it came from the mailchecker installed now, else mailchecker itself (slower to load). */
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

/** The sorted lines of one string as a set, halved in place: no lookup makes a string, and loading builds nothing. */
class LineSet implements DomainList {
  constructor(
    private readonly text: string,
    private readonly from: number,
  ) {}

  has(name: string): boolean {
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

/** The line `text[start, end)` against `name`, in the order of JavaScript's sort (UTF-16 code units). */
function compareLine(text: string, start: number, end: number, name: string): number {
  const length = Math.min(end - start, name.length);
  for (let i = 0; i < length; i++) {
    const difference = text.charCodeAt(start + i) - name.charCodeAt(i);
    if (difference !== 0) return difference;
  }
  return end - start - name.length;
}

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
