import { UsageError } from '../errors.js';

/** `--json` alone is `true`; `--json a,b` is the field list. */
export type JsonFlag = boolean | string | undefined;

/** Keeps only the requested top-level fields, as `gh --json` does; an unknown one is a usage error listing them. */
export function selectFields(value: unknown, flag: JsonFlag, available: readonly string[]): unknown {
  if (typeof flag !== 'string' || flag.trim() === '') return value;
  const wanted = flag
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = wanted.filter((f) => !available.includes(f));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown JSON field${unknown.length > 1 ? 's' : ''} for --json: ${unknown.join(', ')}`,
      `available fields: ${available.join(', ')}`,
    );
  }
  const pick = (item: unknown) => {
    if (item === null || typeof item !== 'object') return item;
    const source = item as Record<string, unknown>;
    return Object.fromEntries(wanted.map((f) => [f, source[f] ?? null]));
  };
  return Array.isArray(value) ? value.map(pick) : pick(value);
}

export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
