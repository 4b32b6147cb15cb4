// `clean` with the cleaning service: one run per list and account, its journal, the shared limiter, the
// allowance, and the questions a terminal may ask before anything is paid.

import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { CleaningClient } from '../../api/cleaning.js';
import type { CheckOutcome } from '../../clean/check/outcome.js';
import type { PrecheckOutcome } from '../../clean/check/precheck.js';
import type { OutputCount } from '../../clean/run/summary.js';
import { runSummary } from '../../clean/run/summary.js';
import type { InputLayout } from '../../clean/scan/input/index.js';
import { KeysExcept } from '../../clean/scan/keys-except.js';
import { inputChanged, type ScanResult } from '../../clean/scan/scan.js';
import type { AccountState } from '../../clean/state/account-state.js';
import type { KnownAllowance } from '../../clean/state/disk/allowance-file.js';
import { Journal, lockJournal } from '../../clean/state/disk/journal.js';
import { describeOwner } from '../../clean/state/disk/lockfile.js';
import { SharedStateError } from '../../clean/state/redis/connect.js';
import type { VerdictCache } from '../../clean/state/verdict-cache.js';
import { SERVICE_COLUMNS, type Verdict } from '../../clean/verdict/verdict.js';
import { VerdictTable } from '../../clean/verdict/verdict-table.js';
import { type WriteOptions, type WriteSummary, writeRows } from '../../clean/write/write-rows.js';
import { DEFAULT_RATE, parseRate, type Rate } from '../../config/rate.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { ProgressReporter } from '../../io/progress.js';
import { promptConfirm } from '../../io/prompt.js';
import { formatCount, quantity } from '../../quantities.js';
import { redactUrl } from '../../redact.js';
import { cleaningAccountKey, cleaningSession } from '../common/sessions.js';
import { cacheOrWarn } from './cache-or-warn.js';
import type { CleanOptions } from './clean.js';
import { finishRun, finishStoppedRun } from './finish.js';
import { countOnly, outputCounts, writeOptions } from './outputs.js';
import { runPrecheck } from './precheck-step.js';
import { allowanceText, reportDryRun } from './report.js';
import { send } from './send-with-progress.js';

/** Above this many addresses, a run on a terminal asks before spending (unless --yes). */
const CONFIRM_ABOVE = 1_000;

/** Who is cleaning, on which service, at which rate: what every step of a run needs to know. */
interface Account {
  rate: Rate;
  /** The account's journals, limiter, cache and allowance; undefined when not signed in (dry run). */
  state?: AccountState;
  journalFile?: string;
  allowance?: KnownAllowance;
}

export async function cleanWithService(f: Factory, o: CleanOptions, layout: InputLayout, scan: ScanResult, progress: ProgressReporter, startedAt: number): Promise<number> {
  // A dry run sends nothing: it consults the journal and what is known of the allowance only if it can name the account.
  const client = o.dryRun ? undefined : await cleaningSession(f);
  const account = await identify(f, o, layout.fingerprint);
  const cache = account.state && (await cacheOrWarn(f, account.state, 'addresses answered before are sent and paid for again (the journal still answers this list)'));
  if (o.dryRun) return await dryRun(f, o, scan, account, cache);
  return await withJournal(f, o, layout, scan, { startedAt, client: client!, account, progress, cache });
}

/** --dry-run: what the journal and the cache already answer, and what the rest would cost. */
async function dryRun(f: Factory, o: CleanOptions, scan: ScanResult, account: Account, cache: VerdictCache | undefined): Promise<number> {
  const restart = await decideRestart(f, o, account.journalFile, scan);
  const journaled = account.journalFile && !restart ? Journal.peek(account.journalFile).results : new Map<string, unknown>();
  // What is left to send is counted, never copied: the list's own keys but the journal's and the cache's (a bit each).
  const checked = new Map<string, unknown>();
  for (const key of scan.unique) if (journaled.has(key)) checked.set(key, true);
  const unanswered = new KeysExcept(scan.unique, checked);
  // What the cache answers was handed out already: leaving it out does not change what is still to come.
  const fromCache = cache && o.maxAgeMs > 0 ? await cache.count(unanswered, Date.now() - o.maxAgeMs, (key) => unanswered.exclude(key)) : 0;
  // The precheck costs nothing, so the dry run runs it: what it decides is what a run would not pay for.
  const prechecked = await runPrecheck(f, o, unanswered);
  reportDryRun(f, o, scan, { checked, fromCache, precheck: prechecked, rate: account.rate, signedIn: account.state !== undefined, allowance: account.allowance });
  return ExitCode.ok;
}

async function withJournal(f: Factory, o: CleanOptions, layout: InputLayout, scan: ScanResult, run: Omit<Run, 'journal'>): Promise<number> {
  const { account } = run;
  const journalFile = account.journalFile!;
  const unlock = await lockJournal(journalFile, {
    signal: f.io.signals.stop,
    onWait: (owner) => f.io.note(`Another run (${describeOwner(owner)}) is cleaning this list with this account; waiting for it to finish…`),
    onTakeOver: (owner, why) => f.io.note(`Took over this list's lock from ${describeOwner(owner)}: ${why}.`),
  });
  let journal: Journal | undefined;
  try {
    const restart = await decideRestart(f, o, journalFile, scan);
    if (restart === 'cancel') return ExitCode.ok;
    journal = Journal.open(journalFile, { restart });
    if (journal.badLines > 0) {
      const were = journal.badLines === 1 ? 'was' : 'were';
      f.io.warn(`${quantity(journal.badLines, 'line')} of ${journalFile} could not be read and ${were} skipped: those addresses are checked again (--restart discards the journal)`);
    }
    return await sendAndWrite(f, o, layout, scan, { ...run, journal });
  } finally {
    await journal?.close();
    unlock();
  }
}

async function identify(f: Factory, o: CleanOptions, fingerprint: string): Promise<Account> {
  const profile = await f.profile();
  const settings = profile.settings();
  const rate = o.rate ?? parseRate(settings.rate ?? DEFAULT_RATE, settings.rate ? `rate in profile "${f.profileName}"` : 'rate');
  const key = await cleaningAccountKey(f);
  if (!key) return { rate };
  const state = await f.accountState(key, o.shared).catch((error: unknown) => {
    if (error instanceof SharedStateError)
      throw new CliError(`${error.message}: nothing was sent`, ExitCode.error, 'check --shared (or MAILCLEAN_REDIS_URL), or run without it to use this machine only');
    throw error;
  });
  return { rate, state, journalFile: state.journalFile(fingerprint), allowance: state.knownAllowance() };
}

interface Run {
  startedAt: number;
  cache: VerdictCache | undefined;
  journal: Journal;
  client: CleaningClient;
  account: Account;
  progress: ProgressReporter;
}

async function sendAndWrite(f: Factory, o: CleanOptions, layout: InputLayout, scan: ScanResult, run: Run): Promise<number> {
  const { journal, account } = run;
  // Every answer goes into a table by address number, and what is left to send is the list's own keys but those
  // answered (a bit each): a list of millions is never copied. The journal holds what was paid for, no more.
  const verdicts = new VerdictTable(scan.unique);
  const journaled = new Map<string, Verdict>();
  for (const [key, verdict] of journal.results) if (scan.unique.ordinal(key) >= 0) journaled.set(key, verdict);
  for (const [key, verdict] of journaled) verdicts.setKey(key, verdict);
  const pending = new KeysExcept(scan.unique, journaled);
  const already = journaled.size;
  const { fromCache, prechecked } = await answerForFree(f, o, run, pending, verdicts);
  noteResumed(f, already, scan.unique.size);
  if (!(await confirmSpend(f, o, pending.size, account.allowance))) {
    f.io.note('Nothing was sent.');
    return ExitCode.ok;
  }
  const outcome = await send(f, o, pending, scan, run);
  for (const [key, verdict] of journal.results) verdicts.setKey(key, verdict);
  const answerFor = verdictsByRow(f, layout, scan, verdicts);
  rememberRun(account.state!, account.allowance, outcome);
  // The count `mailclean allowance` shows; a shared store gone mid-run must not fail what was paid for.
  await account.state!.recordSpend(outcome.spent).catch(() => undefined);
  run.progress.update({ phase: 'writing', rows: scan.rows });
  const saved = prechecked?.decidedCount ?? 0;
  const answered = { fromJournal: already, fromCache, sent: verdicts.size - already - fromCache - saved };
  const service = redactUrl((await f.profile()).urls().cleanUrl!);
  const summaryOf = (written: WriteSummary, outputs: OutputCount[]) =>
    runSummary({
      input: layout.displayName,
      checker: 'service',
      service,
      startedAt: run.startedAt,
      scan,
      tally: written.tally,
      outputs,
      answered,
      outcome,
      allowanceLeft: account.allowance?.left,
      precheck: prechecked,
    });
  const stopped = outcome.stopped?.reason;
  // Interrupted: no output is written (--resume finishes it); the side files, when asked for, say how it ended.
  if (stopped === 'interrupted') {
    const counting = countOnly(o, f, scan);
    const counted = counting && (await writeRows(layout, answerFor, counting));
    return finishStoppedRun(f, o, counted && { summary: summaryOf(counted, []), tally: counted.tally }, outcome, interruptedNote(journal.results.size));
  }
  const failed = stopped === 'auth' || stopped === 'storage';
  const options = { ...writeOptions(o, f, scan), extraColumns: SERVICE_COLUMNS };
  // Failed before checking anything: an output that already exists (an earlier run's) is left as it was.
  const kept = failed && answered.sent === 0 ? keepExisting(options) : [];
  if (kept.length > 0) f.io.note(`Nothing was checked: ${kept.join(' and ')} ${kept.length === 1 ? 'is' : 'are'} left as ${kept.length === 1 ? 'it was' : 'they were'}.`);
  const written = await writeRows(layout, answerFor, options);
  const summary = summaryOf(
    written,
    outputCounts(o, written).filter((c) => !kept.includes(c.path)),
  );
  if (failed) return finishStoppedRun(f, o, { summary, tally: written.tally }, outcome, interruptedNote(journal.results.size));
  return finishRun(f, o, summary, written.tally, outcome);
}

function noteResumed(f: Factory, already: number, unique: number): void {
  if (already > 0 && already === unique) {
    f.io.note(`All ${quantity(already, 'address', 'addresses')} were answered by an earlier run of this list: nothing is sent (--restart checks them again).`);
  } else if (already > 0) {
    f.io.note(`Resuming: ${quantity(already, 'address', 'addresses')} already checked ${already === 1 ? 'is' : 'are'} not sent again.`);
  }
}

/**
 * What costs nothing: the cache's answers within --max-age, then the precheck's decisions (in the table only, not
 * journaled: a resumed run makes them again, at no cost). Each leaves `pending`.
 */
async function answerForFree(f: Factory, o: CleanOptions, run: Run, pending: KeysExcept, verdicts: VerdictTable): Promise<{ fromCache: number; prechecked?: PrecheckOutcome }> {
  const answered = (key: string, verdict: Verdict) => {
    verdicts.setKey(key, verdict);
    pending.exclude(key);
  };
  const fromCache = await answerFromCache(f, o, run, pending, answered);
  const prechecked = await runPrecheck(f, o, pending, answered);
  return { fromCache, prechecked };
}

/**
 * How the write pass finds each row's verdict: by the row's address number, read in step with the rows (one write
 * pass), once the memory that found numbers by address is given back. A list edited during the run (which can last
 * hours) is matched by address instead, as its rows' numbers mean nothing: its new addresses come out unchecked.
 */
function verdictsByRow(f: Factory, layout: InputLayout, scan: ScanResult, verdicts: VerdictTable): (key: string) => Verdict | undefined {
  if (inputChanged(layout, scan)) {
    f.io.note(`${layout.displayName} changed during the run: its rows get the answers of their addresses, and addresses new to it are unchecked.`);
    return (key) => {
      const ordinal = scan.unique.ordinal(key);
      return ordinal >= 0 ? verdicts.get(ordinal) : undefined;
    };
  }
  if (!scan.rowOrdinals) throw new Error("a scan for a run that writes keeps each row's address number");
  const nextOrdinal = scan.rowOrdinals.reader();
  scan.unique.dropIndex();
  return () => verdicts.get(nextOrdinal());
}

/** Drops from `options` the output files that exist already, so they are not replaced; returns their names. */
function keepExisting(options: WriteOptions): string[] {
  const kept: string[] = [];
  if (options.output && existsSync(options.output.path)) {
    kept.push(options.output.given);
    options.output = undefined;
    options.backup = undefined;
    options.stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
  }
  if (options.rejects && existsSync(options.rejects.path)) {
    kept.push(options.rejects.given);
    options.rejects = undefined;
  }
  return kept;
}

const interruptedNote = (answers: number) => `Interrupted: ${quantity(answers, 'answer')} saved. Run the same command with --resume to continue.`;

/**
 * Addresses answered within --max-age, for any list of this account, are not sent: their cached verdicts (with
 * the time of the original answer) join this run's answers in memory. Returns how many.
 */
async function answerFromCache(f: Factory, o: CleanOptions, run: Run, pending: KeysExcept, answered: (key: string, verdict: Verdict) => void): Promise<number> {
  if (!run.cache || o.maxAgeMs <= 0 || pending.size === 0) return 0;
  // What the cache hands over was read already: leaving it out of `pending` does not change what is still to come.
  const fromCache = await run.cache.lookupEach(pending, Date.now() - o.maxAgeMs, answered);
  if (fromCache > 0)
    f.io.note(`${quantity(fromCache, 'address', 'addresses')} answered within ${formatAge(o.maxAgeMs)} ${fromCache === 1 ? 'comes' : 'come'} from the cache: not sent (--max-age 0 asks again).`);
  return fromCache;
}

function formatAge(ms: number): string {
  const days = ms / 86_400_000;
  return Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'}` : `${Math.round(ms / 3_600_000)} h`;
}

/** On a terminal, a run that spends more than a little asks first, saying what is known of the allowance. */
async function confirmSpend(f: Factory, o: CleanOptions, pending: number, allowance: KnownAllowance | undefined): Promise<boolean> {
  const toSpend = o.maxSpend !== undefined ? Math.min(o.maxSpend, pending) : pending;
  if (toSpend <= CONFIRM_ABOVE || o.yes || !f.io.canPrompt) return true;
  f.io.say(`This run will spend up to ${quantity(toSpend, 'address', 'addresses')} of your allowance${allowance ? ` (${allowanceText(allowance)})` : ''}.`);
  return promptConfirm(f.io.raw, 'Continue?');
}

/** Keeps what this run learned of the allowance for the next dry run and confirmation. */
function rememberRun(state: AccountState, before: KnownAllowance | undefined, outcome: CheckOutcome): void {
  if (outcome.allowance?.left !== undefined) state.rememberAllowance(outcome.allowance, 'refusal');
  else if (before?.left !== undefined && outcome.spent > 0) state.rememberAllowance({ ...before, left: Math.max(0, before.left - outcome.spent) }, 'run');
}

/**
 * An earlier run's journal. Finished: reused, nothing is paid again (--restart pays again). Unfinished:
 * --resume continues, --restart discards; on a terminal the user is asked, and told what starting over costs.
 */
async function decideRestart(f: Factory, o: CleanOptions, journalFile: string | undefined, scan: ScanResult): Promise<boolean | 'cancel'> {
  if (o.restart) return true;
  if (o.resume || !journalFile || !Journal.exists(journalFile)) return false;
  const saved = Journal.peek(journalFile).results;
  let covered = 0;
  for (const key of scan.unique) if (saved.has(key)) covered++;
  if (covered === 0 || covered === scan.unique.size || o.dryRun || o.yes) return false;
  const left = scan.unique.size - covered;
  if (!f.io.canPrompt) {
    throw new UsageError(
      `an earlier run of this list saved ${quantity(covered, 'answer')} and has ${quantity(left, 'address', 'addresses')} left to check`,
      'pass --resume to continue it (nothing is paid twice), or --restart to start over (paying again)',
    );
  }
  f.io.say(`An earlier run of this list saved ${quantity(covered, 'answer')}; ${quantity(left, 'address', 'addresses')} ${left === 1 ? 'is' : 'are'} still to check.`);
  if (await promptConfirm(f.io.raw, 'Resume it?')) return false;
  f.io.say(`Starting over sends all ${quantity(scan.unique.size, 'address', 'addresses')} again: ${formatCount(covered)} of them are paid a second time.`);
  if (await promptConfirm(f.io.raw, 'Start over?', false)) return true;
  f.io.note('Nothing was sent.');
  return 'cancel';
}
