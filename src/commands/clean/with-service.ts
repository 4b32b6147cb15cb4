// `clean` with the cleaning service: one run per list and account, its journal, the shared limiter, the
// allowance, and the questions a terminal may ask before anything is paid.

import type { CleaningClient } from '../../api/cleaning.js';
import type { CheckOutcome } from '../../clean/check/outcome.js';
import type { PrecheckOutcome } from '../../clean/check/precheck.js';
import type { OutputCount } from '../../clean/run/summary.js';
import { type RunSummary, runSummary } from '../../clean/run/summary.js';
import type { InputLayout } from '../../clean/scan/input/index.js';
import { KeysExcept } from '../../clean/scan/keys-except.js';
import type { ScanResult } from '../../clean/scan/scan.js';
import type { AccountState, KnownAllowance, ListJournal, SavedAnswers } from '../../clean/state/account-state.js';
import type { VerdictCache } from '../../clean/state/verdict-cache.js';
import { SERVICE_COLUMNS, type Verdict } from '../../clean/verdict/verdict.js';
import { VerdictTable } from '../../clean/verdict/verdict-table.js';
import { type WriteSummary, writeRows } from '../../clean/write/write-rows.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { ProgressReporter } from '../../io/progress.js';
import { quantity } from '../../quantities.js';
import { redactUrl } from '../../redact.js';
import { cleaningSession } from '../common/sessions.js';
import { cacheOrWarn } from './cache-or-warn.js';
import type { CleanOptions } from './clean.js';
import { finishRun, finishStoppedRun } from './finish.js';
import { countOnly, outputCounts, writeOptions } from './outputs.js';
import { runPrecheck } from './precheck-step.js';
import { confirmSpend, decideRestart } from './questions.js';
import { noteResumed, reportDryRun } from './report.js';
import { send } from './send-with-progress.js';
import { type Account, identify } from './service-account.js';
import { keepExisting, verdictsByRow } from './service-outputs.js';

export async function cleanWithService(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  progress: ProgressReporter,
  startedAt: number,
): Promise<number> {
  // A dry run sends nothing: it consults the journal and what is known of the allowance only if it can name the account.
  const client = o.dryRun ? undefined : await cleaningSession(f);
  const account = await identify(f, o, layout.fingerprint);
  const cache =
    account.state &&
    (await cacheOrWarn(
      f,
      account.state,
      'addresses answered before are sent and paid for again (the journal still answers this list)',
    ));
  if (o.dryRun) return await dryRun(f, o, scan, account.state?.savedAnswers(layout.fingerprint), account, cache);
  return await withJournal(f, o, layout, scan, { startedAt, client: client!, account, progress, cache });
}

/** --dry-run: what the journal and the cache already answer, and what the rest would cost. */
async function dryRun(
  f: Factory,
  o: CleanOptions,
  scan: ScanResult,
  earlier: SavedAnswers | undefined,
  account: Account,
  cache: VerdictCache | undefined,
): Promise<number> {
  const restart = await decideRestart(f, o, earlier, scan);
  const journaled = earlier && !restart ? earlier.results : new Map<string, unknown>();
  // What is left to send is counted, never copied: the list's own keys but the journal's and the cache's (a bit each).
  const checked = new Map<string, unknown>();
  for (const key of scan.unique) if (journaled.has(key)) checked.set(key, true);
  const unanswered = new KeysExcept(scan.unique, checked);
  // What the cache answers was handed out already: leaving it out does not change what is still to come.
  const fromCache =
    cache && o.maxAgeMs > 0
      ? await cache.count(unanswered, Date.now() - o.maxAgeMs, (key) => unanswered.exclude(key))
      : 0;
  // The precheck costs nothing, so the dry run runs it: what it decides is what a run would not pay for.
  const prechecked = await runPrecheck(f, o, unanswered);
  reportDryRun(f, o, scan, {
    checked,
    fromCache,
    precheck: prechecked,
    rate: account.rate,
    signedIn: account.state !== undefined,
    allowance: account.allowance,
  });
  return ExitCode.ok;
}

async function withJournal(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  run: Omit<Run, 'journal'>,
): Promise<number> {
  const { account } = run;
  const journalFile = account.journalFile!;
  const unlock = await account.state!.lockList(layout.fingerprint, {
    signal: f.io.signals.stop,
    onWait: (owner) =>
      f.io.note(`Another run (${owner}) is cleaning this list with this account; waiting for it to finish…`),
    onTakeOver: (owner, why) => f.io.note(`Took over this list's lock from ${owner}: ${why}.`),
  });
  let journal: ListJournal | undefined;
  try {
    const restart = await decideRestart(f, o, account.state!.savedAnswers(layout.fingerprint), scan);
    if (restart === 'cancel') return ExitCode.ok;
    journal = account.state!.openJournal(layout.fingerprint, { restart });
    if (journal.badLines > 0) {
      const were = journal.badLines === 1 ? 'was' : 'were';
      f.io.warn(
        `${quantity(journal.badLines, 'line')} of ${journalFile} could not be read and ${were} skipped: those addresses are checked again (--restart discards the journal)`,
      );
    }
    return await sendAndWrite(f, o, layout, scan, { ...run, journal });
  } finally {
    await journal?.close();
    unlock();
  }
}

interface Run {
  startedAt: number;
  cache: VerdictCache | undefined;
  journal: ListJournal;
  client: CleaningClient;
  account: Account;
  progress: ProgressReporter;
}

async function sendAndWrite(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  run: Run,
): Promise<number> {
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
  return writeAndFinish(f, o, layout, scan, {
    answerFor,
    summaryOf,
    outcome,
    answers: journal.results.size,
    sent: answered.sent,
  });
}

/** Writes the rows (none when interrupted: --resume finishes them) and the side files, and ends the run. */
async function writeAndFinish(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  end: {
    answerFor: (key: string) => Verdict | undefined;
    summaryOf: (written: WriteSummary, outputs: OutputCount[]) => RunSummary;
    outcome: CheckOutcome;
    /** Answers in the journal. */
    answers: number;
    /** Addresses sent in this run. */
    sent: number;
  },
): Promise<number> {
  const { answerFor, summaryOf, outcome } = end;
  const stopped = outcome.stopped?.reason;
  // Interrupted: no output is written (--resume finishes it); the side files, when asked for, say how it ended.
  if (stopped === 'interrupted') {
    const counting = countOnly(o, f, scan);
    const counted = counting && (await writeRows(layout, answerFor, counting));
    return finishStoppedRun(
      f,
      o,
      counted && { summary: summaryOf(counted, []), tally: counted.tally },
      outcome,
      interruptedNote(end.answers),
    );
  }
  const failed = stopped === 'auth' || stopped === 'storage';
  const options = { ...writeOptions(o, f, scan), extraColumns: SERVICE_COLUMNS };
  // Failed before checking anything: an output that already exists (an earlier run's) is left as it was.
  const kept = failed && end.sent === 0 ? keepExisting(options) : [];
  if (kept.length > 0)
    f.io.note(
      `Nothing was checked: ${kept.join(' and ')} ${kept.length === 1 ? 'is' : 'are'} left as ${kept.length === 1 ? 'it was' : 'they were'}.`,
    );
  const written = await writeRows(layout, answerFor, options);
  const summary = summaryOf(
    written,
    outputCounts(o, written).filter((c) => !kept.includes(c.path)),
  );
  if (failed) return finishStoppedRun(f, o, { summary, tally: written.tally }, outcome, interruptedNote(end.answers));
  return finishRun(f, o, summary, written.tally, outcome);
}

/**
 * What costs nothing: the cache's answers within --max-age, then the precheck's decisions (in the table only, not
 * journaled: a resumed run makes them again, at no cost). Each leaves `pending`.
 */
async function answerForFree(
  f: Factory,
  o: CleanOptions,
  run: Run,
  pending: KeysExcept,
  verdicts: VerdictTable,
): Promise<{ fromCache: number; prechecked?: PrecheckOutcome }> {
  const answered = (key: string, verdict: Verdict) => {
    verdicts.setKey(key, verdict);
    pending.exclude(key);
  };
  const fromCache = await answerFromCache(f, o, run, pending, answered);
  const prechecked = await runPrecheck(f, o, pending, answered);
  return { fromCache, prechecked };
}

const interruptedNote = (answers: number) =>
  `Interrupted: ${quantity(answers, 'answer')} saved. Run the same command with --resume to continue.`;

/**
 * Addresses answered within --max-age, for any list of this account, are not sent: their cached verdicts (with
 * the time of the original answer) join this run's answers in memory. Returns how many.
 */
async function answerFromCache(
  f: Factory,
  o: CleanOptions,
  run: Run,
  pending: KeysExcept,
  answered: (key: string, verdict: Verdict) => void,
): Promise<number> {
  if (!run.cache || o.maxAgeMs <= 0 || pending.size === 0) return 0;
  // What the cache hands over was read already: leaving it out of `pending` does not change what is still to come.
  const fromCache = await run.cache.lookupEach(pending, Date.now() - o.maxAgeMs, answered);
  if (fromCache > 0)
    f.io.note(
      `${quantity(fromCache, 'address', 'addresses')} answered within ${formatAge(o.maxAgeMs)} ${fromCache === 1 ? 'comes' : 'come'} from the cache: not sent (--max-age 0 asks again).`,
    );
  return fromCache;
}

function formatAge(ms: number): string {
  const days = ms / 86_400_000;
  return Number.isInteger(days) ? `${days} day${days === 1 ? '' : 's'}` : `${Math.round(ms / 3_600_000)} h`;
}

/** Keeps what this run learned of the allowance for the next dry run and confirmation. */
function rememberRun(state: AccountState, before: KnownAllowance | undefined, outcome: CheckOutcome): void {
  if (outcome.allowance?.left !== undefined) state.rememberAllowance(outcome.allowance, 'refusal');
  else if (before?.left !== undefined && outcome.spent > 0)
    state.rememberAllowance({ ...before, left: Math.max(0, before.left - outcome.spent) }, 'run');
}
