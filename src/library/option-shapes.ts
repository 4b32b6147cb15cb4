// What each option of the library's calls may be, checked at the call: JavaScript callers have no compiler to tell
// them that `ouput` is misspelt, and an option ignored is rows thrown away.
import { UsageError } from '../errors.js';
import type { CleanOptions, ClientOptions, VerifyOptions } from './types.js';

type Kind = 'string' | 'number' | 'boolean' | 'function' | 'object' | 'list' | 'signal';

const CHECK = {
  local: ['boolean'],
  precheck: ['boolean'],
  maxAge: ['string', 'number'],
  caseSensitive: ['boolean'],
  smtp: ['boolean'],
  smtpPort: ['number'],
  smtpFrom: ['string'],
  dnsServers: ['string', 'list'],
} as const;

const STOPS = { onEvent: ['function'], signal: ['signal'], abandon: ['signal'] } as const;

export const CLIENT_OPTIONS = {
  cleanUrl: ['string'],
  token: ['string'],
  email: ['string'],
  dataDir: ['string'],
  shared: ['string'],
  rate: ['string', 'object'],
  concurrency: ['number'],
  profile: ['string'],
  env: ['object'],
  debug: ['function'],
} as const satisfies Record<keyof ClientOptions, readonly Kind[]>;

export const CLEAN_OPTIONS = {
  ...CHECK,
  ...STOPS,
  output: ['string'],
  format: ['string'],
  inPlace: ['boolean'],
  only: ['string', 'list'],
  rejects: ['string'],
  summaryJson: ['string'],
  report: ['string'],
  stepSummary: ['string'],
  column: ['string', 'number'],
  sheet: ['string', 'number'],
  rawValues: ['boolean'],
  encoding: ['string'],
  strict: ['boolean'],
  escapeFormulas: ['boolean'],
  name: ['string'],
  dryRun: ['boolean'],
  earlierRun: ['string'],
  maxSpend: ['number'],
  failWhen: ['string'],
  questions: ['object'],
} as const satisfies Record<keyof CleanOptions, readonly Kind[]>;

export const VERIFY_OPTIONS = { ...CHECK, ...STOPS } as const satisfies Record<keyof VerifyOptions, readonly Kind[]>;

/** `options` as `call` takes them (`shapes`); undefined values pass. */
export function checkOptions(options: unknown, shapes: Record<string, readonly Kind[]>, call: string): void {
  if (options === undefined) return;
  if (kindOf(options) !== 'object')
    throw new UsageError(`${call}: its options must be an object, not ${described(options)}`);
  for (const [key, value] of Object.entries(options as object)) {
    const kinds = Object.hasOwn(shapes, key) ? shapes[key] : undefined;
    if (!kinds) {
      const near = closest(key, Object.keys(shapes));
      throw new UsageError(`${call}: no option "${key}"`, near ? `did you mean ${near}?` : undefined);
    }
    const kind = kindOf(value);
    if (value !== undefined && (kind === 'other' || !kinds.includes(kind)))
      throw new UsageError(`${call}: ${key} must be ${kinds.map(article).join(' or ')}, not ${described(value)}`);
  }
}

function kindOf(value: unknown): Kind | 'other' {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isNaN(value) ? 'other' : 'number';
  if (typeof value === 'function') return 'function';
  if (Array.isArray(value)) return 'list';
  if (value instanceof AbortSignal) return 'signal';
  return value !== null && typeof value === 'object' ? 'object' : 'other';
}

const article = (kind: Kind) =>
  kind === 'list' ? 'a list' : kind === 'signal' ? 'an AbortSignal' : kind === 'object' ? 'an object' : `a ${kind}`;

function described(value: unknown): string {
  if (value === null) return 'null';
  const kind = kindOf(value);
  return kind === 'other' ? String(value) : article(kind);
}

/** The known name `key` most likely meant: at most two edits away. */
function closest(key: string, names: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = edits(key.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function edits(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
