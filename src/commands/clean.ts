import { Option, type Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { parseRate } from '../config/rate.js';
import { parseDnsServers } from '../verify/dns.js';
import type { CleanFlags } from '../clean/session.js';
import { REASON_MEANINGS, STATUS_MEANINGS, STATUSES, meaningLines } from '../clean/verdict.js';
import { prepareOutput, sameFile } from '../clean/output-target.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .argument('[input]', 'CSV or text file with one address per line; - or nothing for stdin')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--in-place', 'allow -o to name the input file: it is replaced, and kept as INPUT.bak')
    .addOption(new Option('--format <format>', 'output format').choices(['csv', 'json', 'ndjson']).default('csv'))
    .option('--column <name|n>', 'the email column, by header name or 1-based number (default: detected)')
    .option('--only <statuses>', 'keep only rows with these statuses, e.g. valid,risky')
    .option('--rejects <file>', 'write the rows --only leaves out to this file')
    .option('--rate <n/window>', 'at most N requests per window, e.g. 50/5m (default: profile rate, else 50/5m)')
    .option('--concurrency <n>', 'requests in flight at once', '4')
    .option('--max-spend <n>', 'send at most N addresses (allowance) in this run')
    .option('--dry-run', 'read the input and report what a run would send and spend; send nothing')
    .option('--resume', 'continue an earlier run of the same input without asking')
    .option('--restart', 'discard what an earlier run of the same input saved')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--local', 'check with the built-in engine (syntax, disposable list, DNS) in-process even when a service is configured')
    .option('--smtp', 'built-in engine: also ask each mail server whether the mailbox exists (needs outbound port 25)')
    .option('--dns-server <ip[:port],...>', 'built-in engine: DNS servers to ask, IPv6 as [ip]:port (default: the system resolver)')
    .option('--smtp-port <n>', 'built-in engine with --smtp: port of the mail servers', '25')
    .option('--smtp-from <address>', 'built-in engine with --smtp: the MAIL FROM address to probe with')
    .addOption(new Option('--json [fields]', 'with --dry-run: print the report as JSON (optionally only these fields)'))
    .addHelpText(
      'after',
      `
Every input row comes out once, in input order, its columns untouched, with these appended:
  email_status, email_valid, email_disposable, email_valid_domain, email_reason, email_checked_at
Blank and malformed addresses are decided locally and never sent; duplicates are sent once.
With no cleaning service configured (clean-url), or with --local, the built-in engine checks in-process:
nothing is sent or spent. Otherwise answers are journaled as they arrive: a run stopped by Ctrl-C, a kill
or the monthly allowance continues with --resume and never pays twice; a finished list run again reuses
its answers (--restart pays again).

Statuses (email_status):
${meaningLines(STATUS_MEANINGS)}

Reasons (email_reason; empty when valid, unchecked or not given):
${meaningLines(REASON_MEANINGS)}

Exit codes: 0 every row decided, 3 some rows unchecked (allowance, --max-spend, service errors),
2 bad input or flags, 4 not signed in, 130 (Ctrl-C) or 143 (SIGTERM) interrupted.

Examples:
  mailclean clean contacts.csv -o cleaned.csv
  mailclean clean contacts.csv --only valid,risky -o keep.csv --rejects drop.csv
  cat list.txt | mailclean clean --format ndjson > results.ndjson
  mailclean clean big.csv --dry-run`,
    )
    .action(run(clean));
}

function parseFlags(ctx: Ctx, opts: Record<string, unknown>, args: unknown[]): CleanFlags {
  const input = (args[0] as string | undefined) ?? '-';
  if (input === '-' && ctx.io.stdin.isTTY) throw new UsageError('no input: give a file, or pipe a list into stdin', 'mailclean clean contacts.csv');
  const concurrency = Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) throw new UsageError(`--concurrency: "${opts.concurrency}" is not a whole number from 1 to 16`);
  let maxSpend: number | undefined;
  if (opts.maxSpend !== undefined) {
    maxSpend = Number(opts.maxSpend);
    if (!Number.isInteger(maxSpend) || maxSpend < 0) throw new UsageError(`--max-spend: "${opts.maxSpend}" is not a whole number`);
  }
  if (opts.resume && opts.restart) throw new UsageError('--resume and --restart cannot be used together');
  if (opts.rejects !== undefined && opts.only === undefined) throw new UsageError('--rejects needs --only (it receives the rows --only leaves out)');
  const only = opts.only !== undefined ? new Set(String(opts.only).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) : undefined;
  if (only && only.size === 0) throw new UsageError('--only: name at least one status, e.g. valid,risky');
  const unknownStatus = [...(only ?? [])].find((status) => !STATUSES.includes(status));
  if (unknownStatus !== undefined) throw new UsageError(`--only: "${unknownStatus}" is not a status`, `statuses: ${STATUSES.join(', ')}`);
  if (opts.json !== undefined && opts.dryRun !== true) {
    throw new UsageError('--json goes with --dry-run (it prints the report as JSON)', 'for the rows as JSON, use --format json or --format ndjson');
  }
  const { output, rejects, backup } = outputTargets(input, opts);
  return {
    input,
    output,
    backup,
    format: opts.format as CleanFlags['format'],
    column: opts.column as string | undefined,
    only,
    rejects,
    rate: opts.rate !== undefined ? parseRate(String(opts.rate), '--rate') : undefined,
    concurrency,
    maxSpend,
    dryRun: opts.dryRun === true,
    resume: opts.resume === true,
    restart: opts.restart === true,
    yes: opts.yes === true,
    json: opts.json as string | boolean | undefined,
    local: opts.local ? localOptions(ctx, opts) : undefined,
  };
}

/** Options of the built-in engine; it runs with --local, or when no cleaning service is configured. */
function localOptions(ctx: Ctx, opts: Record<string, unknown>): NonNullable<CleanFlags['local']> {
  const smtpPort = Number(opts.smtpPort);
  if (!Number.isInteger(smtpPort) || smtpPort < 1 || smtpPort > 65535) throw new UsageError(`--smtp-port: "${opts.smtpPort}" is not a port number`);
  const [source, list] = opts.dnsServer !== undefined ? ['--dns-server', String(opts.dnsServer)] : ['MAILCLEAN_DNS_SERVERS', ctx.env.MAILCLEAN_DNS_SERVERS?.trim() || undefined];
  let dnsServers: string[] | undefined;
  if (list !== undefined) {
    const parsed = parseDnsServers(list);
    if ('error' in parsed) throw new UsageError(`${source}: ${parsed.error}`);
    dnsServers = parsed.servers;
  }
  return { smtp: opts.smtp === true, dnsServers, smtpPort, smtpFrom: opts.smtpFrom as string | undefined };
}

/** The first flag given that only the built-in engine uses, as the user spelled it. */
function engineOnlyFlag(opts: Record<string, unknown>): string | undefined {
  const given = ['smtp', 'dnsServer', 'smtpFrom'].find((k) => opts[k] !== undefined);
  return given && `--${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * The service when one is configured (and not --local), else the built-in engine. A profile that holds a
 * cleaning token but no clean-url is a mistake to report, never a reason to check elsewhere.
 */
async function chooseChecker(ctx: Ctx, flags: CleanFlags, opts: Record<string, unknown>): Promise<void> {
  const engineFlag = engineOnlyFlag(opts);
  if (flags.local) return;
  if (await ctx.hasCleaningService()) {
    if (engineFlag) throw new UsageError(`${engineFlag} works with the built-in engine only (--local)`);
    return;
  }
  if ((await ctx.token('clean')).value) {
    throw new UsageError(
      `no clean-url is configured for profile "${ctx.profileName}", which holds a cleaning token`,
      'pass --clean-url URL or run `mailclean config set clean-url URL` (or --local to check with the built-in engine)',
    );
  }
  flags.local = localOptions(ctx, opts);
  ctx.note(
    'No cleaning service configured: checking with the built-in engine in-process (nothing spent). ' +
      'To use the service: `mailclean login --api-url URL --clean-url URL`.',
  );
}

/**
 * Output paths are resolved and probed before anything is spent, so a typo cannot waste a run; none may be
 * the input (through links too), unless --in-place says so, and then the input is kept as INPUT.bak.
 */
function outputTargets(input: string, opts: Record<string, unknown>): Pick<CleanFlags, 'output' | 'rejects' | 'backup'> {
  const given = { '--output': opts.output as string | undefined, '--rejects': opts.rejects as string | undefined };
  if (given['--output'] !== undefined && given['--rejects'] !== undefined && sameFile(given['--output'], given['--rejects'])) {
    throw new UsageError('--output and --rejects name the same file');
  }
  let backup: string | undefined;
  for (const [flag, path] of Object.entries(given)) {
    if (path === undefined || input === '-' || !sameFile(path, input)) continue;
    if (flag === '--output' && opts.inPlace === true) backup = `${input}.bak`;
    else throw new UsageError(`${flag}: ${path} is the input file: writing it would overwrite your list`, flag === '--output' ? 'write elsewhere, or pass --in-place to replace the input (a copy is kept as INPUT.bak)' : 'write the rejects elsewhere');
  }
  if (opts.inPlace === true && backup === undefined) throw new UsageError('--in-place needs -o naming the input file');
  return {
    output: given['--output'] !== undefined ? prepareOutput('--output', given['--output']) : undefined,
    rejects: given['--rejects'] !== undefined ? prepareOutput('--rejects', given['--rejects']) : undefined,
    backup,
  };
}

async function clean(ctx: Ctx, opts: Record<string, unknown>, args: unknown[]): Promise<number> {
  const flags = parseFlags(ctx, opts, args);
  await ctx.requireKnownProfile();
  await chooseChecker(ctx, flags, opts);
  const [{ openInput }, { scanInput }, { ProgressReporter }] = await Promise.all([
    import('../clean/input/index.js'),
    import('../clean/scan.js'),
    import('../clean/progress.js'),
  ]);
  const progress = new ProgressReporter(ctx.io.stderr, { live: ctx.stderrIsTTY, quiet: ctx.quiet });
  const layout = await openInput({ path: flags.input, stdin: ctx.io.stdin, spoolDir: `${ctx.dataDir}/spool`, column: flags.column, signal: ctx.io.signals.stop });
  try {
    await progress.start();
    const scan = await scanInput(layout, (rows) => progress.update({ rows }), ctx.io.signals.stop);
    progress.stop();
    ctx.note(
      `${layout.displayName}: ${scan.rows.toLocaleString('en-US')} rows, email column "${layout.emailColumnName}", ` +
        `${scan.unique.size.toLocaleString('en-US')} unique addresses, ${(scan.blank + scan.invalid).toLocaleString('en-US')} blank or malformed`,
    );
    const { cleanPhase } = await import('../clean/session.js');
    return await cleanPhase(ctx, flags, layout, scan, progress);
  } finally {
    progress.stop();
    await layout.cleanup();
  }
}
