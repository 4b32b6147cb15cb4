// The options of one clean, the library's or the CLI's flags, checked before anything is read or spent and turned
// into the run's request. Messages name each option as the caller's `name` does.
import type { CleanRequest, OutputsRequest } from '../clean/run/request.js';
import { parseThresholds } from '../clean/run/thresholds.js';
import { ENCODINGS } from '../clean/scan/input/encodings.js';
import { FORMATS, formatOfPath, OUTPUT_FORMATS } from '../clean/write/formats/index.js';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../errors.js';
import { fixTyposOf, type Naming, onlyStatuses, optionName, wholeNumber } from './option-checks.js';
import { outputTargets } from './output-targets.js';
import type { CleanOptions } from './types.js';

/** The run's request but for what its caller adds: the input's stream, where rows go, the signals that stop it. */
export type ListRequest = Omit<CleanRequest, 'stdin' | 'spoolDir' | 'signals' | 'clock' | 'outputs'> & {
  outputs: Omit<OutputsRequest, 'stdout'>;
};

/** The library's options, or the CLI's flags under the same names (whose numbers are still text). */
export type PlanOptions = Omit<CleanOptions, 'maxSpend' | 'smtpPort' | 'dnsConcurrency' | 'fixTypos'> & {
  maxSpend?: string | number;
  fixTypos?: string | boolean;
  dnsConcurrency?: string | number;
  yes?: boolean;
};

const EARLIER_RUN = ['resume', 'restart'] as const;

export interface CleanPlan {
  request: ListRequest;
  maxSpend?: number;
}

export function cleanPlan(input: string, o: PlanOptions, name: Naming = optionName): CleanPlan {
  const format = oneOf(o.format, OUTPUT_FORMATS, name('format')) ?? formatOfPath(o.output ?? '') ?? 'csv';
  if (o.rejects !== undefined && o.only === undefined)
    throw new UsageError(`${name('rejects')} needs ${name('only')} (it receives the rows ${name('only')} leaves out)`);
  // The rejects are written as the rows are: a name that says another format would mislead what opens it.
  const rejectsFormat = formatOfPath(o.rejects ?? '');
  if (rejectsFormat !== undefined && rejectsFormat !== format)
    throw new UsageError(
      `${name('rejects')}: ${o.rejects} names ${rejectsFormat}, but the rows are written as ${format}`,
      `name it ${FORMATS[format].extension}, or choose the rows' format with ${name('format')}`,
    );
  const failWhen = o.failWhen === undefined ? undefined : parseThresholds(o.failWhen);
  if (failWhen && 'error' in failWhen) throw new UsageError(`${name('failWhen')}: ${failWhen.error}`);
  return {
    request: {
      input,
      column: o.column === undefined ? undefined : String(o.column),
      sheet: o.sheet === undefined ? undefined : String(o.sheet),
      rawValues: o.rawValues ?? false,
      encoding: oneOf(o.encoding, ENCODINGS, name('encoding')),
      strict: o.strict ?? false,
      caseSensitive: o.caseSensitive ?? false,
      fixTypos: fixTyposOf(o.fixTypos, name('fixTypos')),
      outputs: {
        ...outputTargets(input, o, name),
        format,
        escapeFormulas: o.escapeFormulas,
        only: onlyStatuses(o.only, name('only')),
        stepSummary: o.stepSummary,
      },
      dryRun: o.dryRun ?? false,
      earlierRun: oneOf(o.earlierRun, EARLIER_RUN, name('earlierRun')),
      yes: o.yes ?? false,
      // Starting over asks the service again: neither this list's journal nor the cache answers.
      maxAgeMs: o.earlierRun === 'restart' ? 0 : maxAgeOf(o.maxAge, name('maxAge')),
      failWhen: failWhen?.thresholds,
    },
    maxSpend: o.maxSpend === undefined ? undefined : wholeNumber(o.maxSpend, name('maxSpend'), 0),
  };
}

/** `value` when it is one of `allowed` (undefined stays so): a JavaScript caller has no compiler to tell it. */
function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], source: string): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new UsageError(`${source}: "${value}" is not one of ${allowed.join(', ')}`);
}

/** `30d`, `12h`, a number of milliseconds; 0: the cache is not read. */
export function maxAgeOf(value: string | number | undefined, source: string): number {
  if (value === undefined) return parseDuration('30d', source);
  if (typeof value === 'number') return wholeNumber(value, source, 0);
  return parseDuration(value, source);
}
