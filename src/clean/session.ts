import type { Ctx } from '../context.js';
import { AuthError, CliError, ExitCode, UsageError } from '../errors.js';
import { formatRate, parseRate, type Rate } from '../config/rate.js';
import { promptConfirm } from '../io/prompt.js';
import { renderPairs, renderTable } from '../io/table.js';
import { cleaningSession } from '../account/session.js';
import type { InputLayout } from './input/index.js';
import type { ScanResult } from './scan.js';
import { count, formatDuration, type ProgressReporter } from './progress.js';
import { accountKey, journalPath, limiterStatePath } from './identity.js';
import { Journal, lockJournal } from './journal.js';
import type { CleaningClient } from '../api/cleaning.js';
import { SlidingWindowLimiter, realClock, type Booking } from './limiter.js';
import { checkAddresses, MAX_BATCH, type CheckOutcome } from './checker.js';
import { writeOutputs, type WriteSummary } from './write.js';
import { knownAllowance, rememberAllowance, type KnownAllowance } from './allowance.js';
import type { OutputFormat } from './output.js';
import type { OutputTarget } from './output-target.js';

export interface CleanFlags {
  input: string;
  output?: OutputTarget;
  /** --in-place: the output replaces the input, which is copied here first. */
  backup?: string;
  format: OutputFormat;
  column?: string;
  only?: Set<string>;
  rejects?: OutputTarget;
  rate?: Rate;
  concurrency: number;
  maxSpend?: number;
  dryRun: boolean;
  resume: boolean;
  restart: boolean;
  yes: boolean;
  json?: string | boolean;
  /** Check with the in-process engine instead of the service. */
  local?: { smtp: boolean; dnsServers?: string[]; smtpPort?: number; smtpFrom?: string };
}

const DEFAULT_RATE = '50/5m';
/** Above this many addresses, a run on a terminal asks before spending (unless --yes). */
const CONFIRM_ABOVE = 1_000;

/** After the scan: decide what to send, send it, write the outputs, report. Returns the exit code. */
export async function cleanPhase(ctx: Ctx, flags: CleanFlags, layout: InputLayout, scan: ScanResult, progress: ProgressReporter): Promise<number> {
  if (flags.local) return flags.dryRun ? dryRun(ctx, flags, scan, { checked: new Set() }) : localPhase(ctx, flags, layout, scan, progress);
  const settings = await ctx.settings();
  const rate = flags.rate ?? parseRate(settings.rate ?? DEFAULT_RATE, settings.rate ? `rate in profile "${ctx.profileName}"` : 'rate');
  const identity = await ctx.cleanIdentity();
  if (!identity) {
    throw new UsageError(`no clean-url is configured for profile "${ctx.profileName}"`, 'pass --clean-url URL or run `mailclean config set clean-url URL`');
  }

  // A dry run sends nothing: it consults the journal and what is known of the allowance only if it can name the account.
  const client = flags.dryRun ? undefined : await cleaningSession(ctx);
  const creds = await ctx.credentials();
  const token = await ctx.token('clean');
  const account = token.value ? accountKey(identity, token.source === 'profile' ? creds.email : undefined, token.value) : undefined;
  const journalFile = account ? journalPath(ctx.dataDir, account, layout.fingerprint) : undefined;
  const allowance = account ? knownAllowance(ctx.dataDir, account) : undefined;

  if (flags.dryRun) {
    const restart = await decideRestart(ctx, flags, journalFile, scan);
    const checked = journalFile && !restart ? Journal.peek(journalFile).results : new Map();
    return dryRun(ctx, flags, scan, { checked, rate, account, allowance });
  }

  const unlock = await lockJournal(journalFile!, {
    signal: ctx.io.signals.stop,
    onWait: (owner) => ctx.note(`Another run${owner.pid ? ` (pid ${owner.pid})` : ''} is cleaning this list with this account; waiting for it to finish…`),
  });
  let journal: Journal | undefined;
  try {
    const restart = await decideRestart(ctx, flags, journalFile, scan);
    if (restart === 'cancel') return ExitCode.ok;
    journal = Journal.open(journalFile!, { restart });
    if (journal.badLines > 0) {
      ctx.warn(`${count(journal.badLines, 'line')} of ${journalFile} could not be read and ${journal.badLines === 1 ? 'was' : 'were'} skipped: those addresses are checked again (--restart discards the journal)`);
    }
    return await sendAndWrite(ctx, flags, layout, scan, { journal, client: client!, rate, account: account!, allowance }, progress);
  } finally {
    journal?.close();
    unlock();
  }
}

interface SendContext {
  journal: Journal;
  client: CleaningClient;
  rate: Rate;
  account: string;
  allowance: KnownAllowance | undefined;
}

async function sendAndWrite(ctx: Ctx, flags: CleanFlags, layout: InputLayout, scan: ScanResult, send: SendContext, progress: ProgressReporter): Promise<number> {
  const { journal, client, rate, account, allowance } = send;
  const pending = [...scan.unique].filter((key) => !journal.results.has(key));
  const already = scan.unique.size - pending.length;
  if (already > 0 && pending.length === 0) {
    ctx.note(`All ${count(already, 'address', 'addresses')} were answered by an earlier run of this list: nothing is sent (--restart checks them again).`);
  } else if (already > 0) {
    ctx.note(`Resuming: ${count(already, 'address', 'addresses')} already checked ${already === 1 ? 'is' : 'are'} not sent again.`);
  }
  const toSpend = flags.maxSpend !== undefined ? Math.min(flags.maxSpend, pending.length) : pending.length;
  if (toSpend > CONFIRM_ABOVE && !flags.yes && ctx.canPrompt) {
    const left = allowance ? ` (${allowanceText(allowance)})` : '';
    ctx.io.stderr.write(`This run will spend up to ${count(toSpend, 'address', 'addresses')} of your allowance${left}.\n`);
    const ok = await promptConfirm(ctx.io, 'Continue?');
    if (!ok) {
      ctx.note('Nothing was sent.');
      return ExitCode.ok;
    }
  }

  const limiter = new SlidingWindowLimiter({ rate, clock: realClock, statePath: limiterStatePath(ctx.dataDir, account!) });
  const outcome = await sendAll(ctx, flags, pending, journal, limiter, client!, rate, progress, scan);
  rememberRun(ctx.dataDir, account!, allowance, outcome);
  if (outcome.stopped?.reason === 'interrupted') {
    ctx.io.stderr.write(`Interrupted: ${count(journal.results.size, 'answer')} saved. Run the same command with --resume to continue.\n`);
    return ctx.io.signals.exitCode;
  }

  progress.update({ phase: 'writing', rows: scan.rows });
  const summary = await writeOutputs(layout, journal.results, {
    format: flags.format,
    output: flags.output,
    backup: flags.backup,
    stdout: ctx.io.stdout,
    only: flags.only,
    rejects: flags.rejects,
    signal: ctx.io.signals.stop,
  });
  printSummary(ctx, summary, outcome, flags);
  if (outcome.stopped?.reason === 'auth') throw outcome.stopped.error ?? new AuthError(outcome.stopped.message);
  if (outcome.stopped?.reason === 'storage') throw outcome.stopped.error ?? new CliError(outcome.stopped.message);
  const unchecked = summary.byStatus.get('unchecked') ?? 0;
  if (unchecked > 0) {
    const why = (outcome.stopped?.message ?? 'some addresses were not checked').replace(/[.\s]+$/, '');
    ctx.io.stderr.write(`${ctx.style.yellow('partial:')} ${count(unchecked, 'row')} unchecked: ${why}${allowanceDetail(outcome)}.\n`);
    ctx.io.stderr.write(`hint: ${partialHint(outcome)}\n`);
    return ExitCode.partial;
  }
  return ExitCode.ok;
}

function allowanceText(known: KnownAllowance): string {
  return `${known.left!.toLocaleString('en-US')} left as of ${known.asOf.slice(0, 16).replace('T', ' ')} UTC`;
}

/** " (0 left; renews 2026-12-01)" when the service said. */
function allowanceDetail(outcome: CheckOutcome): string {
  if (outcome.stopped?.reason !== 'allowance' || !outcome.allowance) return '';
  const parts: string[] = [];
  if (outcome.allowance.left !== undefined) parts.push(`${outcome.allowance.left.toLocaleString('en-US')} left`);
  if (outcome.allowance.renewsAt) parts.push(`renews ${outcome.allowance.renewsAt.slice(0, 10)}`);
  return parts.length ? ` (${parts.join('; ')})` : '';
}

function partialHint(outcome: CheckOutcome): string {
  switch (outcome.stopped?.reason) {
    case 'allowance': {
      const when = outcome.allowance?.renewsAt ? `on ${outcome.allowance.renewsAt.slice(0, 10)}` : 'next month';
      return `a larger plan raises the monthly allowance; --local checks the rest now with the built-in engine; or run the same command with --resume after the allowance renews (${when}): nothing is paid twice.`;
    }
    case 'max-spend':
      return 'run the same command with --resume (and a higher --max-spend) to check the rest: nothing is paid twice.';
    default:
      return 'run the same command with --resume later to check the rest: nothing is paid twice.';
  }
}

/** Keeps what this run learned of the allowance for the next dry run and confirmation. */
function rememberRun(dataDir: string, account: string, before: KnownAllowance | undefined, outcome: CheckOutcome): void {
  if (outcome.allowance?.left !== undefined) rememberAllowance(dataDir, account, outcome.allowance, 'refusal');
  else if (before?.left !== undefined && outcome.spent > 0) rememberAllowance(dataDir, account, { ...before, left: Math.max(0, before.left - outcome.spent) }, 'run');
}

/**
 * An earlier run's journal. Finished: reused, nothing is paid again (--restart pays again). Unfinished:
 * --resume continues, --restart discards; on a terminal the user is asked, and told what starting over costs.
 */
async function decideRestart(ctx: Ctx, flags: CleanFlags, journalFile: string | undefined, scan: ScanResult): Promise<boolean | 'cancel'> {
  if (flags.restart) return true;
  if (flags.resume || !journalFile || !Journal.exists(journalFile)) return false;
  const saved = Journal.peek(journalFile).results;
  let covered = 0;
  for (const key of scan.unique) if (saved.has(key)) covered++;
  if (covered === 0 || covered === scan.unique.size || flags.dryRun || flags.yes) return false;
  const left = scan.unique.size - covered;
  if (ctx.canPrompt) {
    ctx.io.stderr.write(`An earlier run of this list saved ${count(covered, 'answer')}; ${count(left, 'address', 'addresses')} ${left === 1 ? 'is' : 'are'} still to check.\n`);
    if (await promptConfirm(ctx.io, 'Resume it?')) return false;
    ctx.io.stderr.write(`Starting over sends all ${count(scan.unique.size, 'address', 'addresses')} again: ${covered.toLocaleString('en-US')} of them are paid a second time.\n`);
    const again = await promptConfirm(ctx.io, 'Start over?', false);
    if (again) return true;
    ctx.note('Nothing was sent.');
    return 'cancel';
  }
  throw new UsageError(
    `an earlier run of this list saved ${count(covered, 'answer')} and has ${count(left, 'address', 'addresses')} left to check`,
    'pass --resume to continue it (nothing is paid twice), or --restart to start over (paying again)',
  );
}

async function sendAll(
  ctx: Ctx,
  flags: CleanFlags,
  pending: string[],
  journal: Journal,
  limiter: SlidingWindowLimiter,
  client: { clean(emails: string[], signal?: AbortSignal): Promise<import('../api/shape.js').Json[]> },
  rate: Rate,
  progress: ProgressReporter,
  scan: ScanResult,
): Promise<CheckOutcome> {
  const { stop, abort } = ctx.io.signals;
  const onStop = () => progress.note('Stopping after the requests in flight (Ctrl-C again to stop at once)…');
  stop.addEventListener('abort', onStop, { once: true });
  const started = Date.now();
  let checked = 0;
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck: pending.length, checked: 0, spent: 0, requests: 0 });
  await progress.start();
  try {
    const outcome = await checkAddresses(pending, {
      send: (emails, signal) => client.clean(emails, signal),
      acquire: (signal) => limiter.acquire(signal, (ms) => progress.waiting(ms)),
      release: (slot) => limiter.release(slot as Booking),
      record: (verdicts) => journal.record(verdicts),
      clock: realClock,
      concurrency: flags.concurrency,
      maxSpend: flags.maxSpend,
      stop,
      abort,
      onEvent: (event) => {
        if (event.type === 'answered') {
          checked += event.addresses;
          progress.update({ checked, spent: event.spent, requests: event.requests, waitingMs: 0, etaMs: eta(pending.length - checked, checked, Date.now() - started, limiter) });
        } else if (event.type === 'waiting' && event.why === 'rate') {
          progress.update({ waitingMs: event.ms });
        } else if (event.type === 'retry') {
          ctx.debug(`retrying a batch: ${event.message}`);
        }
      },
    });
    if (stop.aborted) outcome.stopped = { ...(outcome.stopped ?? { message: 'interrupted' }), reason: 'interrupted' };
    return outcome;
  } finally {
    progress.stop();
    stop.removeEventListener('abort', onStop);
  }
}

/**
 * Time left: what the rate limit still imposes on the addresses left (re-sent batches included, as their
 * addresses are still unanswered), or what the pace so far implies (retries and 429 waits included), whichever is longer.
 */
function eta(remaining: number, answered: number, elapsedMs: number, limiter: SlidingWindowLimiter): number {
  if (remaining <= 0) return 0;
  const byRate = limiter.timeToSend(Math.ceil(remaining / MAX_BATCH));
  const byPace = answered > 0 ? (elapsedMs / answered) * remaining : 0;
  return Math.max(byRate, byPace);
}

/** Time the rate limit alone imposes on the requests still to send. */
function rateEta(requests: number, rate: Rate): number {
  if (requests <= 0) return 0;
  return Math.max(0, Math.ceil(requests / rate.requests) - 1) * rate.windowMs;
}

interface DryRunContext {
  /** Addresses an earlier run of this list already answered. */
  checked: { has(key: string): boolean };
  /** The service's rate limit; absent when the built-in engine checks. */
  rate?: Rate;
  account?: string;
  allowance?: KnownAllowance;
}

function dryRun(ctx: Ctx, flags: CleanFlags, scan: ScanResult, dry: DryRunContext): number {
  let already = 0;
  for (const key of scan.unique) if (dry.checked.has(key)) already++;
  const local = dry.rate === undefined;
  const toSend = local ? 0 : scan.unique.size - already;
  const spend = flags.maxSpend !== undefined ? Math.min(flags.maxSpend, toSend) : toSend;
  const requests = Math.ceil(spend / MAX_BATCH);
  const report = {
    checker: local ? 'local' : 'service',
    rows: scan.rows,
    blank: scan.blank,
    malformed: scan.invalid,
    duplicates: scan.duplicates,
    unique: scan.unique.size,
    alreadyChecked: already,
    toSend: spend,
    requests,
    allowanceNeeded: spend,
    allowanceLeft: dry.allowance?.left ?? null,
    allowanceAsOf: dry.allowance?.asOf ?? null,
    rate: dry.rate ? formatRate(dry.rate) : null,
    minimumSeconds: dry.rate ? Math.round(rateEta(requests, dry.rate) / 1000) : 0,
  };
  if (flags.json !== undefined) {
    ctx.json(report, flags.json, Object.keys(report));
    return ExitCode.ok;
  }
  const n = (x: number) => x.toLocaleString('en-US');
  const pairs: Array<[string, string]> = [
    ['Rows', n(report.rows)],
    ['Blank', n(report.blank)],
    ['Malformed', n(report.malformed)],
    ['Duplicates', n(report.duplicates)],
    ['Unique addresses', n(report.unique)],
  ];
  if (local) {
    pairs.push(['Checked by', 'the built-in engine, in-process (nothing sent, no allowance spent)']);
  } else {
    pairs.push(
      ['Already checked', dry.account ? n(report.alreadyChecked) : '0 (not signed in: no journal to consult)'],
      ['To send', n(report.toSend)],
      ['Requests', `${n(report.requests)} (at most ${MAX_BATCH} addresses each)`],
      ['Allowance needed', n(report.allowanceNeeded)],
      ['Allowance left', dry.allowance ? `${allowanceText(dry.allowance)}${dry.allowance.left! < spend ? ` (${n(spend - dry.allowance.left!)} would stay unchecked)` : ''}` : 'unknown (the service has not said yet)'],
      ['Rate limit', `${report.rate} → at least ${formatDuration(report.minimumSeconds * 1000)}`],
    );
  }
  ctx.out(renderPairs(pairs));
  return ExitCode.ok;
}

function printSummary(ctx: Ctx, summary: WriteSummary, outcome: CheckOutcome, flags: CleanFlags): void {
  if (ctx.quiet) return;
  const byStatus = summary.byStatus;
  const order = ['valid', 'risky', 'invalid', 'unknown', 'unchecked'];
  const statuses = [...byStatus.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const total = summary.rows;
  const rows = statuses.map((s) => [s, byStatus.get(s)!.toLocaleString('en-US'), `${((100 * byStatus.get(s)!) / Math.max(1, total)).toFixed(1)}%`]);
  ctx.io.stderr.write(renderTable(['STATUS', 'ROWS', 'SHARE'], rows, ctx.stderrIsTTY));
  const main = `${count(summary.written, 'row')} written to ${flags.output?.given ?? 'stdout'}${flags.backup ? ` (the original kept as ${flags.backup})` : ''}`;
  const rejects = flags.rejects !== undefined ? `, ${count(summary.rejected, 'row')} to ${flags.rejects.given}` : flags.only ? `, ${count(summary.rejected, 'row')} left out by --only` : '';
  const spent =
    outcome.requests > 0 || outcome.spent > 0
      ? `; spent ${count(outcome.spent, 'address', 'addresses')} in ${count(outcome.requests, 'request')}${outcome.retries ? ` (${count(outcome.retries, 'retry', 'retries')})` : ''}`
      : flags.local
        ? ''
        : '; nothing spent';
  ctx.io.stderr.write(`${main}${rejects}${spent}.\n`);
}

/** `clean --local`: the same outputs, from the built-in engine; nothing is sent to the service or spent. */
async function localPhase(ctx: Ctx, flags: CleanFlags, layout: InputLayout, scan: ScanResult, progress: ProgressReporter): Promise<number> {
  const [{ Engine }, { checkLocally }] = await Promise.all([import('../verify/engine.js'), import('./local.js')]);
  const local = flags.local!;
  const engine = new Engine({
    dns: { servers: local.dnsServers },
    smtp: { enabled: local.smtp, port: local.smtpPort, from: local.smtpFrom },
    onWarning: (message) => progress.note(`${ctx.style.yellow('warning:')} ${message}`),
  });
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck: scan.unique.size, checked: 0, spent: 0, requests: 0 });
  await progress.start();
  let outcome;
  try {
    outcome = await checkLocally(scan.unique, engine, {
      concurrency: 256,
      stop: ctx.io.signals.stop,
      now: Date.now,
      onChecked: (checked) => progress.update({ checked }),
    });
  } finally {
    progress.stop();
    await engine.close();
  }
  if (outcome.interrupted) {
    ctx.io.stderr.write('Interrupted: nothing was spent; run the command again to check the list.\n');
    return ctx.io.signals.exitCode;
  }
  const summary = await writeOutputs(layout, outcome.results, {
    format: flags.format,
    output: flags.output,
    backup: flags.backup,
    stdout: ctx.io.stdout,
    only: flags.only,
    rejects: flags.rejects,
    signal: ctx.io.signals.stop,
    suggestions: true,
  });
  printSummary(ctx, summary, { spent: 0, requests: 0, retries: 0 }, flags);
  const dns = engine.stats().dns;
  ctx.debug(`local engine: ${dns.lookups} domain lookups, ${dns.queries} DNS queries`);
  return ExitCode.ok;
}
