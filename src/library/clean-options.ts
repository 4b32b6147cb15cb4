// The options of one clean, as a program gives them, checked before anything is read or spent and turned into
// the run's request.
import type { CleanRequest } from '../clean/run/request.js';
import { parseThresholds } from '../clean/run/thresholds.js';
import { FORMATS, formatOfPath, OUTPUT_FORMATS } from '../clean/write/formats/index.js';
import { parseDuration } from '../config/duration.js';
import { UsageError } from '../errors.js';
import { onlyStatuses, wholeNumber } from './option-checks.js';
import { outputTargets } from './output-targets.js';
import type { ClientSettings } from './settings.js';
import type { CleanOptions } from './types.js';

export interface CleanPlan {
  request: Omit<CleanRequest, 'signals' | 'outputs' | 'input' | 'stdin'> & {
    outputs: Omit<CleanRequest['outputs'], 'stdout' | 'rows'>;
  };
  maxSpend?: number;
}

/** The options as the run takes them. */
export function cleanPlan(input: string, o: CleanOptions, settings: ClientSettings): CleanPlan {
  if (o.format !== undefined && !OUTPUT_FORMATS.includes(o.format))
    throw new UsageError(`format: "${o.format}" is not one of ${OUTPUT_FORMATS.join(', ')}`);
  if (o.rejects !== undefined && o.only === undefined)
    throw new UsageError('rejects needs only (it receives the rows only leaves out)');
  const format = o.format ?? formatOfPath(o.output ?? '') ?? 'csv';
  if (FORMATS[format].binary && o.output === undefined)
    throw new UsageError(`format: ${format} is written to a file only (give output)`);
  const restart = o.earlierRun === 'restart';
  const failWhen = o.failWhen === undefined ? undefined : parseThresholds(o.failWhen);
  if (failWhen && 'error' in failWhen) throw new UsageError(`failWhen: ${failWhen.error}`);
  const { backup, ...targets } = outputTargets(input, o);
  return {
    request: {
      column: o.column === undefined ? undefined : String(o.column),
      sheet: o.sheet === undefined ? undefined : String(o.sheet),
      rawValues: o.rawValues ?? false,
      encoding: o.encoding,
      strict: o.strict ?? false,
      caseSensitive: o.caseSensitive ?? false,
      outputs: {
        format,
        escapeFormulas: o.escapeFormulas,
        ...targets,
        backup,
        only: onlyStatuses(o.only, 'only'),
        stepSummary: o.stepSummary,
      },
      dryRun: o.dryRun ?? false,
      earlierRun: o.earlierRun,
      yes: false,
      // Starting over asks the service again: neither this list's journal nor the cache answers.
      maxAgeMs: restart ? 0 : maxAgeOf(o.maxAge, 'maxAge'),
      failWhen: failWhen?.thresholds,
      spoolDir: `${settings.dataDir}/spool`,
      clock: settings.clock,
    },
    maxSpend: o.maxSpend === undefined ? undefined : wholeNumber(o.maxSpend, 'maxSpend', 0),
  };
}

/** `30d`, `12h`, a number of milliseconds; 0: the cache is not read. */
export function maxAgeOf(value: string | number | undefined, source: string): number {
  if (value === undefined) return parseDuration('30d', source);
  if (typeof value === 'number') return wholeNumber(value, source, 0);
  return parseDuration(value, source);
}
