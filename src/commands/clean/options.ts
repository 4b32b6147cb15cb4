// `clean`'s flags checked (a bad value is a usage error naming its flag), and the run started from them.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { parseThresholds, type Threshold } from '../../clean/run/thresholds.js';
import { checkSharedUrl } from '../../clean/state/open-state.js';
import { FORMATS, formatOfPath } from '../../clean/write/formats/index.js';
import { parseDuration } from '../../config/duration.js';
import { parseRate } from '../../config/rate.js';
import { UsageError } from '../../errors.js';
import { type Factory, flagName } from '../../factory.js';
import { onlyStatuses, wholeNumber } from '../../library/option-checks.js';
import { outputTargets } from '../../library/output-targets.js';
import type { CleanFlags, RawCleanFlags } from './clean.js';
import { runOrigin } from './origin.js';

/** Runs `clean` as `cmd` parsed it; `resumes` names the recorded run it continues (`runs resume ID`). */
export async function startClean(
  f: Factory,
  cmd: CommandUnknownOpts,
  opts: RawCleanFlags,
  args: [input?: string],
  resumes?: string,
): Promise<number> {
  const options = cleanFlags(opts, args, f.io.stdin.isTTY === true);
  options.request.origin = { ...runOrigin(cmd, process.cwd()), resumes };
  const { format, output } = options.request.outputs;
  if (FORMATS[format].binary && output === undefined && f.io.isStdoutTTY) {
    throw new UsageError(
      `--format ${format}: a workbook is not for a terminal`,
      `pass -o FILE${FORMATS[format].extension}, or redirect stdout to a file`,
    );
  }
  const { cleanCommand } = await import('./run.js');
  return cleanCommand(options, f);
}

export function cleanFlags(opts: RawCleanFlags, args: [input?: string], stdinIsTTY: boolean): CleanFlags {
  const input = args[0] ?? '-';
  if (input === '-' && stdinIsTTY)
    throw new UsageError('no input: give a file, or pipe a list into stdin', 'mailclean clean contacts.csv');
  if (opts.resume && opts.restart) throw new UsageError('--resume and --restart cannot be used together');
  if (opts.rejects !== undefined && opts.only === undefined)
    throw new UsageError('--rejects needs --only (it receives the rows --only leaves out)');
  if (opts.json !== undefined && opts.dryRun !== true) {
    throw new UsageError(
      '--json goes with --dry-run (it prints the report as JSON)',
      'for the rows as JSON, use --format json or --format ndjson',
    );
  }
  return {
    request: request(input, opts),
    client: {
      rate: opts.rate !== undefined ? parseRate(opts.rate, '--rate') : undefined,
      concurrency: wholeNumber(opts.concurrency, '--concurrency', 1, 16),
      shared: opts.shared !== undefined ? checkSharedUrl(opts.shared, '--shared') : undefined,
    },
    checks: {
      local: opts.local ?? false,
      precheck: opts.precheck,
      maxSpend: opts.maxSpend !== undefined ? wholeNumber(opts.maxSpend, '--max-spend', 0) : undefined,
      smtp: opts.smtp ?? false,
      smtpPort: wholeNumber(opts.smtpPort, '--smtp-port', 1, 65535),
      smtpFrom: opts.smtpFrom,
      dnsServers: opts.dnsServer,
    },
    json: opts.json,
  };
}

function request(input: string, opts: RawCleanFlags): CleanFlags['request'] {
  return {
    input,
    column: opts.column,
    sheet: opts.sheet,
    rawValues: opts.rawValues ?? false,
    encoding: opts.encoding,
    strict: opts.strict ?? false,
    caseSensitive: opts.caseSensitive ?? false,
    outputs: {
      ...outputTargets(input, opts, flagName),
      format: opts.format ?? formatOfPath(opts.output ?? '') ?? 'csv',
      escapeFormulas: opts.escapeFormulas,
      only: onlyStatuses(opts.only === undefined ? undefined : String(opts.only), '--only'),
      countDomains: opts.summaryJson !== undefined || opts.report !== undefined,
    },
    dryRun: opts.dryRun ?? false,
    earlierRun: opts.restart ? 'restart' : opts.resume ? 'resume' : undefined,
    yes: opts.yes ?? false,
    // --restart asks the service again: neither this list's journal nor the cache answers.
    maxAgeMs: opts.restart ? 0 : parseDuration(opts.maxAge, '--max-age'),
    failWhen: opts.failWhen !== undefined ? thresholds(String(opts.failWhen)) : undefined,
  };
}

function thresholds(text: string): Threshold[] {
  const parsed = parseThresholds(text);
  if ('error' in parsed) throw new UsageError(`--fail-when: ${parsed.error}`);
  return parsed.thresholds;
}
