// `clean` with the built-in engine in-process: no allowance, nothing paid. With --local on a signed-in account, the
// answers the service already gave (this list's journal, the cache) are kept and only the rest is checked here.

import type { OnVerdict } from '../../clean/check/engine/check-with-engine.js';
import type { CheckOutcome } from '../../clean/check/outcome.js';
import { runSummary } from '../../clean/run/summary.js';
import type { InputLayout } from '../../clean/scan/input/index.js';
import { KeysExcept } from '../../clean/scan/keys-except.js';
import { assertInputUnchanged, type ScanResult } from '../../clean/scan/scan.js';
import type { UniqueKeys } from '../../clean/scan/spill/unique-keys.js';
import type { AccountState } from '../../clean/state/account-state.js';
import { SharedStateError } from '../../clean/state/account-state.js';
import type { Verdict } from '../../clean/verdict/verdict.js';
import { VerdictTable } from '../../clean/verdict/verdict-table.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { ProgressReporter } from '../../io/progress.js';
import { formatCount, quantity } from '../../quantities.js';
import type { Engine } from '../../verify/index.js';
import { cleaningAccountKey } from '../common/sessions.js';
import { cacheOrWarn } from './cache-or-warn.js';
import type { EngineSettings } from './choose-checker.js';
import type { CleanOptions } from './clean.js';
import { finishRun, finishStoppedRun } from './finish.js';
import { countOnly, outputCounts, writeOptions } from './outputs.js';
import { reportDryRun } from './report.js';

const ENGINE_CONCURRENCY = 256;

/**
 * The engine for a clean that checks (none for a dry run), made before the list is read: the scan hands it each new
 * address, so that DNS answers for the list's domains come in while the rest of the list is read.
 */
export async function startEngine(f: Factory, settings: EngineSettings, progress: ProgressReporter): Promise<Engine> {
  const { Engine } = await import('../../verify/index.js');
  return new Engine({
    dns: { servers: settings.dnsServers },
    smtp: { enabled: settings.smtp, port: settings.smtpPort, from: settings.smtpFrom },
    onWarning: (message) => progress.note(`${f.io.style.yellow('warning:')} ${message}`),
  });
}

/** `engine`: from startEngine, undefined for a dry run (which checks nothing). */
export async function cleanWithEngine(
  f: Factory,
  o: CleanOptions,
  engine: Engine | undefined,
  layout: InputLayout,
  scan: ScanResult,
  progress: ProgressReporter,
  startedAt: number,
): Promise<number> {
  if (o.dryRun || !engine) return dryRun(f, o, layout, scan);
  const { writeRows } = await import('../../clean/write/write-rows.js');
  // The service's answers go straight into the table (a list's cached answers can be millions); the distinct
  // verdicts they share are remembered, so that an interrupted run counts only those.
  const verdicts = new VerdictTable(scan.unique);
  const kept = new Set<Verdict>();
  const saved = await savedAnswers(f, o, layout, scan, (key, verdict) => {
    verdicts.setKey(key, verdict);
    kept.add(verdict);
  });
  const toCheck = scan.unique.size - verdicts.size;
  if (verdicts.size > 0) noteKept(f, verdicts.size, toCheck, saved);
  // From here on rows find their verdicts by number (run.ts keeps each row's for the engine): the memory that found
  // numbers by address is given back.
  if (!scan.rowOrdinals) throw new Error("the engine's scan keeps each row's address number");
  const nextOrdinal = scan.rowOrdinals.reader();
  scan.unique.dropIndex();
  const rest = verdicts.size > 0 ? unsaved(scan.unique, verdicts) : scan.unique.entries();
  progress.update({ phase: 'checking', rows: scan.rows, unique: scan.unique.size, toCheck, checked: 0 });
  await progress.start();
  const outcome = await checkAll(f, engine, rest, progress, (ordinal, verdict) => verdicts.set(ordinal, verdict));
  const answered = { fromJournal: saved.fromJournal, fromCache: saved.fromCache, sent: toCheck };
  // Each row's address number, read in step with the rows, finds its verdict without hashing the address again.
  assertInputUnchanged(layout, scan);
  const answerFor = () => verdicts.get(nextOrdinal());
  if (outcome.interrupted) {
    const keptOnly = () => {
      const verdict = answerFor();
      return verdict && kept.has(verdict) ? verdict : undefined;
    };
    return endInterrupted(f, o, layout, scan, keptOnly, { answered, startedAt });
  }
  const written = await writeRows(layout, answerFor, {
    ...writeOptions(o, f, scan),
    extraColumns: ['email_suggestion'],
  });
  const summary = runSummary({
    input: layout.displayName,
    checker: 'local',
    startedAt,
    scan,
    tally: written.tally,
    outputs: outputCounts(o, written),
    answered,
  });
  const dns = engine.stats().dns;
  f.io.debug(`local engine: ${dns.lookups} domain lookups, ${dns.queries} DNS queries`);
  return finishRun(f, o, summary, written.tally);
}

/** --dry-run: what the service's answers already cover (signed in); the engine would check the rest, for free. */
async function dryRun(f: Factory, o: CleanOptions, layout: InputLayout, scan: ScanResult): Promise<number> {
  const saved = await savedAnswers(f, o, layout, scan);
  reportDryRun(f, o, scan, {
    checked: saved.journaled,
    fromCache: saved.fromCache,
    signedIn: saved.account !== undefined,
  });
  return ExitCode.ok;
}

/** No output is written; the side files, when asked for, still say how the run ended. */
async function endInterrupted(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  keptOnly: () => Verdict | undefined,
  run: { answered: { fromJournal: number; fromCache: number; sent: number }; startedAt: number },
): Promise<number> {
  const { writeRows } = await import('../../clean/write/write-rows.js');
  const stopped: CheckOutcome = {
    spent: 0,
    requests: 0,
    retries: 0,
    stopped: { reason: 'interrupted', message: 'interrupted' },
  };
  const counting = countOnly(o, f, scan);
  const counted = counting && (await writeRows(layout, keptOnly, counting));
  const ended = counted && {
    summary: runSummary({
      input: layout.displayName,
      checker: 'local',
      startedAt: run.startedAt,
      scan,
      tally: counted.tally,
      outputs: [],
      answered: run.answered,
      outcome: stopped,
    }),
    tally: counted.tally,
  };
  return finishStoppedRun(
    f,
    o,
    ended,
    stopped,
    'Interrupted: nothing was spent; run the command again to check the list.',
  );
}

/** The list's addresses without an answer kept from the service, with their numbers. */
function* unsaved(keys: UniqueKeys, verdicts: VerdictTable): Generator<[number, string]> {
  for (const entry of keys.entries()) if (verdicts.get(entry[0]) === undefined) yield entry;
}

/** The engine over the addresses, with the progress line; Ctrl-C abandons lookups in flight (nothing is spent). */
async function checkAll(
  f: Factory,
  engine: Engine,
  entries: Iterable<readonly [number, string]>,
  progress: ProgressReporter,
  onVerdict: OnVerdict,
) {
  const { checkWithEngine } = await import('../../clean/check/engine/check-with-engine.js');
  // A lookup can take seconds: waiting for those in flight would make Ctrl-C seem ignored.
  const stopEngine = () => void engine.close();
  f.io.signals.stop.addEventListener('abort', stopEngine, { once: true });
  try {
    return await checkWithEngine(entries, engine, {
      concurrency: ENGINE_CONCURRENCY,
      stop: f.io.signals.stop,
      now: Date.now,
      onVerdict,
      onChecked: (checked) => progress.update({ checked }),
    });
  } finally {
    f.io.signals.stop.removeEventListener('abort', stopEngine);
    progress.stop();
    await engine.close();
  }
}

interface SavedAnswers {
  /** The signed-in cleaning account, if any. */
  account?: string;
  /** The journal's answers for this list's addresses (as many as were paid for). */
  journaled: Map<string, Verdict>;
  fromJournal: number;
  fromCache: number;
}

/**
 * What the cleaning service already answered for this list: its journal (unless --restart) and, within --max-age,
 * the account's cache on this machine, each answer handed to `keep` (without it the cache's are only counted, for a
 * dry run). Paid answers are better than the engine's; the engine's are never journaled, so a later run with the
 * service still asks it about the rest.
 */
async function savedAnswers(
  f: Factory,
  o: CleanOptions,
  layout: InputLayout,
  scan: ScanResult,
  keep?: (key: string, verdict: Verdict) => void,
): Promise<SavedAnswers> {
  const account = o.local ? await cleaningAccountKey(f) : undefined;
  const journaled = new Map<string, Verdict>();
  if (!account) return { journaled, fromJournal: 0, fromCache: 0 };
  const state = await stateOrWarn(f, o, account);
  if (state && !o.restart) {
    const all = state.savedAnswers(layout.fingerprint).results;
    for (const key of scan.unique) {
      const verdict = all.get(key);
      if (verdict) journaled.set(key, verdict);
    }
  }
  for (const [key, verdict] of journaled) keep?.(key, verdict);
  let fromCache = 0;
  // Reading only: a cache that was never written is not created.
  const cache =
    state?.hasCache() && o.maxAgeMs > 0 && journaled.size < scan.unique.size
      ? await cacheOrWarn(f, state, WITHOUT_CACHE)
      : undefined;
  if (cache) {
    const rest = new KeysExcept(scan.unique, journaled);
    const since = Date.now() - o.maxAgeMs;
    if (!keep) fromCache = await cache.count(rest, since);
    else fromCache = await cache.lookupEach(rest, since, keep);
  }
  return { account, journaled, fromJournal: journaled.size, fromCache };
}

const WITHOUT_CACHE = 'the engine checks what the journal does not answer';

/** The account's state; a shared store that cannot be reached leaves the engine to check everything (warned). */
async function stateOrWarn(f: Factory, o: CleanOptions, account: string): Promise<AccountState | undefined> {
  try {
    return await f.accountState(account, o.shared);
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    f.io.warn(`${error.message}: ${WITHOUT_CACHE}`);
    return undefined;
  }
}

function noteKept(f: Factory, kept: number, toCheck: number, saved: SavedAnswers): void {
  const rest =
    toCheck > 0
      ? `checking the other ${formatCount(toCheck)} with the built-in engine`
      : 'nothing is left for the built-in engine';
  f.io.note(`Keeping ${quantity(kept, 'answer')} the service gave (${savedFrom(saved)}); ${rest}.`);
}

function savedFrom(saved: SavedAnswers): string {
  const parts: string[] = [];
  if (saved.fromJournal > 0) parts.push(`${formatCount(saved.fromJournal)} from an earlier run of this list`);
  if (saved.fromCache > 0) parts.push(`${formatCount(saved.fromCache)} from the cache`);
  return parts.join(', ');
}
