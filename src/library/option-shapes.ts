// Each option of the library's calls, with the kinds of value it takes: checked at the call (JavaScript callers have
// no compiler to tell them that `ouput` is misspelt, and an option ignored is rows thrown away), and read by
// types.ts for the options' types, so that the two never list different options.
import type { RunEvent, RunQuestions } from '../clean/run/events.js';
import type { InputEncoding } from '../clean/scan/input/encodings.js';
import type { OutputFormat } from '../clean/write/formats/index.js';
import type { Rate } from '../config/rate.js';
import { UsageError } from '../errors.js';
import type { Env, VerifyEvent } from './types.js';

/** What a value of each kind is. */
interface KindTypes {
  string: string;
  number: number;
  boolean: boolean;
  function: (...args: never[]) => unknown;
  object: object;
  list: readonly string[];
  signal: AbortSignal;
}

export type Kind = keyof KindTypes;

/** The kinds an option takes, and (for its type alone) what it holds. */
export type Shape<T> = readonly Kind[] & { readonly holds?: T };

/** The options a table of shapes describes, each optional. */
export type OptionsOf<Shapes> = { -readonly [K in keyof Shapes]?: Shapes[K] extends Shape<infer T> ? T : never };

/** An option of these kinds, holding what they are. */
const is = <K extends Kind>(...kinds: K[]) => kinds as Shape<KindTypes[K]>;
/** An option of these kinds whose type says more (an `OutputFormat` is a string). */
const holding = <T>(...kinds: Kind[]) => kinds as Shape<T>;

export const ENGINE_OPTIONS = {
  smtp: is('boolean'),
  smtpPort: is('number'),
  smtpFrom: is('string'),
  dnsServers: is('string', 'list'),
  dnsConcurrency: is('number'),
  dnsTimeout: is('string', 'number'),
} as const;

export const CHECK_OPTIONS = {
  local: is('boolean'),
  precheck: is('boolean'),
  maxAge: is('string', 'number'),
  caseSensitive: is('boolean'),
  ...ENGINE_OPTIONS,
} as const;

const STOPS = { signal: is('signal'), abandon: is('signal') } as const;

export const CLIENT_OPTIONS = {
  cleanUrl: is('string'),
  token: is('string'),
  email: is('string'),
  dataDir: is('string'),
  shared: is('string'),
  rate: holding<string | Rate>('string', 'object'),
  concurrency: is('number'),
  profile: is('string'),
  env: holding<Env>('object'),
  debug: holding<(line: string) => void>('function'),
} as const;

export const CLEAN_OPTIONS = {
  ...CHECK_OPTIONS,
  onEvent: holding<(event: RunEvent) => void>('function'),
  ...STOPS,
  output: is('string'),
  format: holding<OutputFormat>('string'),
  inPlace: is('boolean'),
  only: is('string', 'list'),
  rejects: is('string'),
  summaryJson: is('string'),
  report: is('string'),
  stepSummary: is('string'),
  column: is('string', 'number'),
  sheet: is('string', 'number'),
  rawValues: is('boolean'),
  encoding: holding<InputEncoding>('string'),
  strict: is('boolean'),
  escapeFormulas: is('boolean'),
  fixTypos: holding<'column' | 'replace' | boolean>('string', 'boolean'),
  name: is('string'),
  dryRun: is('boolean'),
  earlierRun: holding<'resume' | 'restart'>('string'),
  maxSpend: is('number'),
  failWhen: is('string'),
  questions: holding<RunQuestions>('object'),
} as const;

export const VERIFY_OPTIONS = {
  ...CHECK_OPTIONS,
  onEvent: holding<(event: VerifyEvent) => void>('function'),
  ...STOPS,
} as const;

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
