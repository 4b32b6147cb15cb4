// `clean`'s flags checked (a bad value is a usage error naming its flag), and the run started from them.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { checkSharedUrl } from '../../clean/state/open-state.js';
import { FORMATS } from '../../clean/write/formats/index.js';
import { parseRate } from '../../config/rate.js';
import { UsageError } from '../../errors.js';
import { type Factory, flagName } from '../../factory.js';
import { cleanPlan } from '../../library/clean-options.js';
import { dnsConcurrencyOf, wholeNumber } from '../../library/option-checks.js';
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
  if (opts.json !== undefined && opts.dryRun !== true) {
    throw new UsageError(
      '--json goes with --dry-run (it prints the report as JSON)',
      'for the rows as JSON, use --format json or --format ndjson',
    );
  }
  const earlierRun = opts.restart ? 'restart' : opts.resume ? 'resume' : undefined;
  const { request, maxSpend } = cleanPlan(input, { ...opts, earlierRun }, flagName);
  const countDomains = opts.summaryJson !== undefined || opts.report !== undefined;
  return {
    request: { ...request, outputs: { ...request.outputs, countDomains } },
    client: {
      rate: opts.rate !== undefined ? parseRate(opts.rate, '--rate') : undefined,
      concurrency: wholeNumber(opts.concurrency, '--concurrency', 1, 16),
      shared: opts.shared !== undefined ? checkSharedUrl(opts.shared, '--shared') : undefined,
    },
    checks: {
      local: opts.local ?? false,
      precheck: opts.precheck,
      maxSpend,
      smtp: opts.smtp ?? false,
      smtpPort: opts.smtpPort === undefined ? undefined : wholeNumber(opts.smtpPort, '--smtp-port', 1, 65535),
      smtpFrom: opts.smtpFrom,
      dnsServers: opts.dnsServer,
      dnsConcurrency: dnsConcurrencyOf(opts.dnsConcurrency, '--dns-concurrency'),
      dnsTimeout: opts.dnsTimeout,
    },
    json: opts.json,
  };
}
