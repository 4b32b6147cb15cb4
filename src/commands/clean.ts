import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { parseRate } from '../config/rate.js';
import type { CleanFlags } from '../clean/session.js';
import type { InputEncoding } from '../clean/input/index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .argument('[input]', 'CSV or text file with one address per line; - or nothing for stdin')
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .addOption(new Option('--format <format>', 'output format').choices(['csv', 'json', 'ndjson']).default('csv'))
    .option('--column <name|n>', 'the email column, by header name or 1-based number (default: detected)')
    .addOption(new Option('--encoding <name>', 'input encoding (default: a BOM\'s, else UTF-8, else Windows-1252)').choices(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252', 'latin1']))
    .option('--only <statuses>', 'keep only rows with these statuses, e.g. valid,risky')
    .option('--rejects <file>', 'write the rows --only leaves out to this file')
    .option('--rate <n/window>', 'at most N requests per window, e.g. 50/5m (default: profile rate, else 50/5m)')
    .option('--concurrency <n>', 'requests in flight at once', '4')
    .option('--max-spend <n>', 'send at most N addresses (allowance) in this run')
    .option('--dry-run', 'read the input and report what a run would send and spend; send nothing')
    .option('--resume', 'continue an earlier run of the same input without asking')
    .option('--restart', 'discard what an earlier run of the same input saved')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--local', 'check with the built-in engine (syntax, disposable list, DNS) in-process: no account, no allowance')
    .option('--smtp', 'with --local: also ask each mail server whether the mailbox exists (needs outbound port 25)')
    .option('--dns-server <host[:port],...>', 'with --local: DNS servers to ask (default: the system resolver)')
    .option('--smtp-port <n>', 'with --local --smtp: port of the mail servers', '25')
    .option('--smtp-from <address>', 'with --local --smtp: the MAIL FROM address to probe with')
    .addOption(new Option('--json [fields]', 'with --dry-run: print the report as JSON (optionally only these fields)'))
    .addHelpText(
      'after',
      `
Every input row comes out once, in input order, its columns untouched, with these appended:
  email_status, email_valid, email_disposable, email_valid_domain, email_reason, email_checked_at
(an earlier run's result columns in the input are replaced by these).
Blank and malformed addresses are decided locally and never sent; duplicates are sent once.
Answers are journaled as they arrive: a run stopped by Ctrl-C, a kill or the monthly allowance
continues with --resume and never pays twice.

Exit codes: 0 every row decided, 3 some rows unchecked (allowance, --max-spend, service errors),
2 bad input or flags, 4 not signed in, 130 interrupted.

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
  const output = opts.output as string | undefined;
  const rejects = opts.rejects as string | undefined;
  for (const [flag, path] of [['--output', output], ['--rejects', rejects]] as const) if (path !== undefined) checkWritable(flag, path);
  if (output !== undefined && rejects !== undefined && resolve(output) === resolve(rejects)) throw new UsageError('--output and --rejects name the same file');
  return {
    input,
    output,
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
    local: localOptions(ctx, opts),
  };
}

function localOptions(ctx: Ctx, opts: Record<string, unknown>): CleanFlags['local'] {
  const needsLocal = ['smtp', 'dnsServer', 'smtpFrom'].filter((k) => opts[k] !== undefined);
  if (!opts.local) {
    if (needsLocal.length > 0) throw new UsageError(`--${needsLocal[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} works with --local only`);
    return undefined;
  }
  const smtpPort = Number(opts.smtpPort);
  if (!Number.isInteger(smtpPort) || smtpPort < 1 || smtpPort > 65535) throw new UsageError(`--smtp-port: "${opts.smtpPort}" is not a port number`);
  const servers = (opts.dnsServer as string | undefined) ?? ctx.env.MAILCLEAN_DNS_SERVERS;
  const dnsServers = servers?.split(',').map((s) => s.trim()).filter(Boolean);
  return { smtp: opts.smtp === true, dnsServers, smtpPort, smtpFrom: opts.smtpFrom as string | undefined };
}

/** Output paths are checked before anything is spent, so a typo cannot waste a run. */
function checkWritable(flag: string, path: string): void {
  const dir = dirname(resolve(path));
  try {
    if (!statSync(dir).isDirectory()) throw new Error();
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag}: cannot write ${path}: ${dir} is not a writable directory`);
  }
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${flag}: ${path} is a directory`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
  }
}

async function clean(ctx: Ctx, opts: Record<string, unknown>, args: unknown[]): Promise<number> {
  const flags = parseFlags(ctx, opts, args);
  await ctx.requireKnownProfile();
  const [{ openInput }, { scanInput }, { ProgressReporter }] = await Promise.all([
    import('../clean/input/index.js'),
    import('../clean/scan.js'),
    import('../clean/progress.js'),
  ]);
  const progress = new ProgressReporter(ctx.io.stderr, { live: ctx.stderrIsTTY, quiet: ctx.quiet });
  const layout = await openInput({ path: flags.input, stdin: ctx.io.stdin, spoolDir: `${ctx.dataDir}/spool`, column: flags.column, encoding: opts.encoding as InputEncoding | undefined });
  try {
    await progress.start();
    const scan = await scanInput(layout, (rows) => progress.update({ rows }));
    progress.stop();
    if (layout.encodingGuessed) ctx.note(`${layout.displayName}: not UTF-8; read as Windows-1252 (use --encoding to choose)`);
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
