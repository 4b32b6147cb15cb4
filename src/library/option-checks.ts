// Checks of one value, shared by the CLI's flags and the library's options; light, as `clean --help` loads it.
import { REASON_MEANINGS, STATUSES } from '../clean/verdict/verdict.js';
import { UsageError } from '../errors.js';
import { PROVIDERS } from '../verify/lists.js';
import type { CleanOptions, ClientOptions } from './types.js';

/** How messages name an option: as a program gives it (`optionName`), or as the CLI's flag. */
export type Naming = (option: keyof ClientOptions | keyof CleanOptions | 'noPrecheck' | 'outputShort') => string;

export const optionName: Naming = (option) =>
  ({ local: 'local: true', noPrecheck: 'precheck: false', outputShort: 'output' })[option as string] ?? option;

export function wholeNumber(value: unknown, source: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(
      `${source}: "${String(value)}" is not a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ''}`,
    );
  }
  return n;
}

/** Domains looked up at once, when fixed: from 1 to 1024. */
export function dnsConcurrencyOf(value: unknown, source: string): number | undefined {
  return value === undefined ? undefined : wholeNumber(value, source, 1, 1024);
}

/** A DNS query's timeout: milliseconds as a number or `250`, `250ms`, `1.5s`; from 10 ms to 60 s. */
export function dnsTimeoutOf(value: string | number, source: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(String(value));
  const ms = match ? Number(match[1]) * (match[2] === 's' ? 1000 : 1) : NaN;
  if (!(ms >= 10 && ms <= 60_000))
    throw new UsageError(
      `${source}: "${String(value)}" is not a timeout from 10ms to 60s`,
      'write it in milliseconds or seconds, e.g. 500ms or 2s',
    );
  return Math.round(ms);
}

/** Where a fixed row's fix goes: `true` is `column`; `false` or nothing fixes none. */
export function fixTyposOf(value: string | boolean | undefined, source: string): 'column' | 'replace' | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true || value === 'column' || value === 'replace') return value === true ? 'column' : value;
  throw new UsageError(`${source}: "${value}" is not column or replace`);
}

function isProviderTerm(term: string): boolean {
  return term.startsWith('provider=') && (PROVIDERS as readonly string[]).includes(term.slice('provider='.length));
}

/** The statuses and reasons `only` keeps (and `provider=NAME` terms); a name that is neither is a usage error naming `source`. */
export function onlyStatuses(value: string | readonly string[] | undefined, source: string): Set<string> | undefined {
  if (value === undefined) return undefined;
  const only = new Set(
    (typeof value === 'string' ? value.split(',') : value).map((s) => s.trim().toLowerCase()).filter(Boolean),
  );
  if (only.size === 0) throw new UsageError(`${source}: name at least one status, e.g. valid,risky`);
  const provider = [...only].find((name) => name.startsWith('provider=') && !isProviderTerm(name));
  if (provider !== undefined)
    throw new UsageError(`${source}: "${provider}" names no provider`, `providers: ${PROVIDERS.join(', ')}`);
  const unknown = [...only].find(
    (name) => !STATUSES.includes(name) && !Object.hasOwn(REASON_MEANINGS, name) && !isProviderTerm(name),
  );
  if (unknown !== undefined)
    throw new UsageError(
      `${source}: "${unknown}" is not a status, a reason or provider=NAME`,
      `statuses: ${STATUSES.join(', ')}; reasons: see clean --help`,
    );
  return only;
}
