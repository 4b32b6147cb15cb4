import type { Ctx } from '../context.js';
import { AuthError, ExitCode, UsageError } from '../errors.js';
import { formatRate, parseRate, type Rate } from '../config/rate.js';
import { promptConfirm } from '../io/prompt.js';
import { renderPairs, renderTable } from '../io/table.js';
import { cleaningSession } from '../account/session.js';
import type { InputLayout } from './input/index.js';
import type { ScanResult } from './scan.js';
import { formatDuration, type ProgressReporter } from './progress.js';
import { accountKey, journalPath, limiterStatePath } from './identity.js';
import { Journal } from './journal.js';
import { SlidingWindowLimiter, realClock, type Booking } from './limiter.js';
import { checkAddresses, MAX_BATCH, type CheckOutcome } from './checker.js';
import { writeOutputs } from './write.js';
import type { OutputFormat } from './output.js';

export interface CleanFlags {
  input: string;
  output?: string;
  format: OutputFormat;
  column?: string;
  only?: Set<string>;
  rejects?: string;
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
  if (flags.local && !flags.dryRun) return localPhase(ctx, flags, layout, scan, progress);
  const settings = await ctx.settings();
  const rate = flags.rate ?? parseRate(settings.rate ?? DEFAULT_RATE, settings.rate ? `rate in profile "${ctx.profileName}"` : 'rate');
  const identity = await ctx.cleanIdentity();
  if (!identity) {
    throw new UsageError(`no clean-url is configured for profile "${ctx.profileName}"`, 'pass --clean-url URL or run `mailclean config set clean-url URL`');
  }

  // A dry run must not create accounts or send anything (nor start the sandbox): it uses the journal only if
  // it can name the account.
  const client = flags.dryRun ? undefined : await cleaningSession(ctx);
  const creds = await ctx.credentials();
  const token = await ctx.token('clean');
  const account = token.value ? accountKey(identity, token.source === 'profile' ? creds.email : undefined, token.value) : undefined;
  const journalFile = account ? journalPath(ctx.dataDir, account, layout.fingerprint) : undefined;

  const restart = await decideRestart(ctx, flags, journalFile);
  if (flags.dryRun) return dryRun(ctx, flags, scan, rate, journalFile && !restart ? Journal.peek(journalFile) : new Set(), account);

  const journal = Journal.open(journalFile!, { input: layout.displayName, fingerprint: layout.fingerprint, cleanUrl: identity, startedAt: new Date().toISOString() }, { restart });
  try {
    const pending = [...scan.unique].filter((key) => !journal.results.has(key));
    const already = scan.unique.size - pending.length;
    if (already > 0) ctx.note(`Resuming: ${already.toLocaleString('en-US')} addresses already checked are not sent again.`);
    const toSpend = flags.maxSpend !== undefined ? Math.min(flags.maxSpend, pending.length) : pending.length;
    if (toSpend > CONFIRM_ABOVE && !flags.yes && ctx.canPrompt) {
      const ok = await promptConfirm(ctx.io, `This run will spend up to ${toSpend.toLocaleString('en-US')} addresses of your allowance. Continue?`);
      if (!ok) return ExitCode.ok;
    }

    const limiter = new SlidingWindowLimiter({ rate, clock: realClock, statePath: limiterStatePath(ctx.dataDir, account!) });
    const outcome = await sendAll(ctx, flags, pending, journal, limiter, client!, rate, progress, scan);
    if (outcome.stopped?.reason === 'interrupted') {
      ctx.io.stderr.write(`Interrupted: ${journal.results.size.toLocaleString('en-US')} answers are saved. Run the same command with --resume to continue.\n`);
      return ExitCode.interrupted;
    }

    progress.update({ phase: 'writing', rows: 0 });
    const summary = await writeOutputs(layout, journal.results, {
      format: flags.format,
      output: flags.output,
      stdout: ctx.io.stdout,
      only: flags.only,
      rejects: flags.rejects,
    });
    printSummary(ctx, summary.byStatus, outcome, flags);
    if (outcome.stopped?.reason === 'auth') throw outcome.stopped.error ?? new AuthError(outcome.stopped.message);
    const unchecked = summary.byStatus.get('unchecked') ?? 0;
    if (unchecked > 0) {
      const why = outcome.stopped?.message ?? 'some addresses were not checked';
      ctx.io.stderr.write(`${ctx.style.yellow('partial:')} ${unchecked.toLocaleString('en-US')} rows unchecked: ${why}.\n`);
      ctx.io.stderr.write(`hint: run the same command with --resume later to check the rest without paying twice.\n`);
      return ExitCode.partial;
    }
    return ExitCode.ok;
  } finally {
    journal.close();
  }
}

/** An earlier run's journal: continue it (--resume, or yes at the prompt) or discard it (--restart). */
async function decideRestart(ctx: Ctx, flags: CleanFlags, journalFile: string | undefined): Promise<boolean> {
  if (flags.restart) return true;
  if (flags.resume || !journalFile || !Journal.exists(journalFile)) return false;
  const saved = Journal.peek(journalFile).size;
  if (saved === 0) return false;
  if (flags.dryRun) return false;
  if (flags.yes) return false;
  if (ctx.canPrompt) {
    return !(await promptConfirm(ctx.io, `An earlier run of this list saved ${saved.toLocaleString('en-US')} answers. Resume it?`));
  }
  throw new UsageError(
    `an earlier run of this list saved ${saved.toLocaleString('en-US')} answers`,
    'pass --resume to continue it (nothing is paid twice), or --restart to start over',
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
  const stop = new AbortController();
  const abort = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts++;
    if (interrupts === 1) {
      progress.note('Stopping after the requests in flight (Ctrl-C again to stop at once)…');
      stop.abort(new Error('interrupted'));
    } else abort.abort(new Error('interrupted'));
  };
  const offs = [ctx.io.onSignal('SIGINT', onInterrupt), ctx.io.onSignal('SIGTERM', onInterrupt)];
  const requestsTotal = Math.ceil(pending.length / MAX_BATCH);
  let checked = 0;
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck: pending.length, checked: 0, spent: 0, requests: 0 });
  await progress.start();
  try {
    const outcome = await checkAddresses(pending, {
      send: (emails, signal) => client.clean(emails, signal),
      acquire: (signal) => limiter.acquire(signal),
      release: (slot) => limiter.release(slot as Booking),
      record: (verdicts) => journal.record(verdicts),
      clock: realClock,
      concurrency: flags.concurrency,
      maxSpend: flags.maxSpend,
      stop: stop.signal,
      abort: abort.signal,
      onEvent: (event) => {
        if (event.type === 'answered') {
          checked += event.addresses;
          const remaining = Math.max(0, requestsTotal - event.requests);
          progress.update({ checked, spent: event.spent, requests: event.requests, waitingMs: 0, etaMs: rateEta(remaining, rate) });
        } else if (event.type === 'waiting' && event.why === 'rate') {
          progress.update({ waitingMs: event.ms });
        } else if (event.type === 'retry') {
          ctx.debug(`retrying a batch: ${event.message}`);
        }
      },
    });
    if (interrupts > 0 && !outcome.stopped) outcome.stopped = { reason: 'interrupted', message: 'interrupted' };
    if (interrupts > 0 && outcome.stopped) outcome.stopped = { ...outcome.stopped, reason: 'interrupted' };
    return outcome;
  } finally {
    progress.stop();
    offs.forEach((off) => off());
  }
}

/** Time the rate limit alone imposes on the requests still to send. */
function rateEta(requests: number, rate: Rate): number {
  if (requests <= 0) return 0;
  return Math.max(0, Math.ceil(requests / rate.requests) - 1) * rate.windowMs;
}

function dryRun(ctx: Ctx, flags: CleanFlags, scan: ScanResult, rate: Rate, checked: ReadonlySet<string>, account: string | undefined): number {
  let already = 0;
  for (const key of scan.unique) if (checked.has(key)) already++;
  const toSend = scan.unique.size - already;
  const spend = flags.maxSpend !== undefined ? Math.min(flags.maxSpend, toSend) : toSend;
  const requests = Math.ceil(spend / MAX_BATCH);
  const report = {
    rows: scan.rows,
    blank: scan.blank,
    malformed: scan.invalid,
    duplicates: scan.duplicates,
    unique: scan.unique.size,
    alreadyChecked: already,
    toSend: spend,
    requests,
    allowanceNeeded: spend,
    rate: formatRate(rate),
    minimumSeconds: Math.round(rateEta(requests, rate) / 1000),
  };
  if (flags.json !== undefined) {
    ctx.json(report, flags.json, Object.keys(report));
    return ExitCode.ok;
  }
  const n = (x: number) => x.toLocaleString('en-US');
  ctx.out(
    renderPairs([
      ['Rows', n(report.rows)],
      ['Blank', n(report.blank)],
      ['Malformed', n(report.malformed)],
      ['Duplicates', n(report.duplicates)],
      ['Unique addresses', n(report.unique)],
      ['Already checked', account ? n(report.alreadyChecked) : '0 (not signed in: no journal to consult)'],
      ['To send', n(report.toSend)],
      ['Requests', `${n(report.requests)} (at most ${MAX_BATCH} addresses each)`],
      ['Allowance needed', n(report.allowanceNeeded)],
      ['Rate limit', `${report.rate} → at least ${formatDuration(report.minimumSeconds * 1000)}`],
    ]),
  );
  return ExitCode.ok;
}

function printSummary(ctx: Ctx, byStatus: Map<string, number>, outcome: CheckOutcome, flags: CleanFlags): void {
  if (ctx.quiet) return;
  const order = ['valid', 'risky', 'invalid', 'unknown', 'unchecked'];
  const statuses = [...byStatus.keys()].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
  const rows = statuses.map((s) => [s, byStatus.get(s)!.toLocaleString('en-US'), `${((100 * byStatus.get(s)!) / Math.max(1, total)).toFixed(1)}%`]);
  ctx.io.stderr.write(renderTable(['STATUS', 'ROWS', 'SHARE'], rows, ctx.stderrIsTTY));
  const where = flags.output ? `written to ${flags.output}` : 'written to stdout';
  ctx.io.stderr.write(
    `${total.toLocaleString('en-US')} rows ${where}; spent ${outcome.spent.toLocaleString('en-US')} addresses in ${outcome.requests.toLocaleString('en-US')} requests` +
      `${outcome.retries ? ` (${outcome.retries} retried)` : ''}.\n`,
  );
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
  const stop = new AbortController();
  const offs = [ctx.io.onSignal('SIGINT', () => stop.abort()), ctx.io.onSignal('SIGTERM', () => stop.abort())];
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck: scan.unique.size, checked: 0, spent: 0, requests: 0 });
  await progress.start();
  let outcome;
  try {
    outcome = await checkLocally(scan.unique, engine, {
      concurrency: 256,
      stop: stop.signal,
      now: Date.now,
      onChecked: (checked) => progress.update({ checked }),
    });
  } finally {
    progress.stop();
    offs.forEach((off) => off());
    await engine.close();
  }
  if (outcome.interrupted) {
    ctx.io.stderr.write('Interrupted: nothing was spent; run the command again to check the list.\n');
    return ExitCode.interrupted;
  }
  const summary = await writeOutputs(layout, outcome.results, {
    format: flags.format,
    output: flags.output,
    stdout: ctx.io.stdout,
    only: flags.only,
    rejects: flags.rejects,
    suggestions: true,
  });
  printSummary(ctx, summary.byStatus, { spent: 0, requests: 0, retries: 0 }, flags);
  const dns = engine.stats().dns;
  ctx.debug(`local engine: ${dns.lookups} domain lookups, ${dns.queries} DNS queries`);
  return ExitCode.ok;
}
