// What a run knows before it checks anything: an earlier run's answers for this list, the account's cache within
// --max-age, and what the precheck decides for free. Each goes into the verdict table by address number and out
// of `pending`, which is the list's own keys but those (a bit each): a list of millions is never copied.
import { type PrecheckOutcome, runPrecheck } from '../check/precheck.js';
import { KeysExcept } from '../scan/keys-except.js';
import type { ScanResult } from '../scan/scan.js';
import { SharedStateError } from '../state/account-state.js';
import type { FoundAnswer, FoundNumbered } from '../state/verdict-cache.js';
import type { Verdict } from '../verdict/verdict.js';
import type { VerdictTable } from '../verdict/verdict-table.js';
import type { Checker, KnownSources } from './checker.js';
import { refuseUnfinished } from './earlier-run.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';
import { Screening } from './screening.js';

export interface KnownAnswers {
  verdicts: VerdictTable;
  pending: KeysExcept;
  fromJournal: number;
  fromCache: number;
  precheck?: PrecheckOutcome;
  /**
   * For a checker whose answers are not kept: how many distinct answers the table held before it checked (journal,
   * cache, precheck; see VerdictTable.answersSoFar), so that an interrupted run counts only those.
   */
  keptBefore?: number;
  /**
   * A paying run that asks nothing of its user: the cache and the precheck answer `pending` a chunk at a time as it
   * is sent (screening.ts), and `fromCache` and `precheck` are known once `screening.finish()` has run.
   */
  screening?: Screening;
  /** The shared state went away as the cache was read: nothing is sent, the rest stays unchecked. */
  lost?: SharedStateError;
}

export async function answerKnown(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  scan: ScanResult,
  known: KnownSources,
): Promise<KnownAnswers> {
  // The journal's answers are in the table already, by number: the run's table from here on.
  const verdicts = known.journaled;
  const fromJournal = verdicts.size;
  const pending = new KeysExcept(scan.unique, verdicts);
  const answered: FoundAnswer = (key, verdict, time) => verdicts.setKey(key, verdict, pending.exclude(key), time);
  const numbered = answeredByNumber(verdicts, pending);
  const screens = screensAsItSends(request, checker, ports, fromJournal);
  // A list that is a good part of the cache is read against it whole (one pass) even when the rest is screened as
  // it is sent: a chunk at a time, it would be looked up address by address. What it leaves is screened.
  const whole = screens ? await readWhole(request, known, pending, answered, numbered) : undefined;
  if (screens && pending.size > 0) {
    ports.emit({ type: 'resumed', already: fromJournal, unique: scan.unique.size });
    const cache = whole === undefined ? known.cache : undefined;
    const screening = new Screening(request, checker, ports, pending, answered, cache, whole);
    // The first chunk is screened from now on: while the precheck's engine loads and its DNS questions are out, the
    // sending gets ready (the claims opened, the limiter made), which it did after the answers came back.
    screening.fill(1, FIRST_CHUNK);
    return { verdicts, pending, fromJournal, fromCache: 0, screening };
  }
  let fromCache = whole ?? 0;
  if (fromCache > 0) ports.emit({ type: 'from-cache', addresses: fromCache, maxAgeMs: request.maxAgeMs });
  // --max-age 0, or nothing left to ask about: the cache is not opened.
  const cache = request.maxAgeMs > 0 && pending.size > 0 && !screens ? await known.cache?.() : undefined;
  let lost: SharedStateError | undefined;
  if (cache) {
    // What the cache hands over was read already: leaving it out of `pending` does not change what is to come.
    const [since, stop] = [request.clock.now() - request.maxAgeMs, request.signals.stop];
    try {
      fromCache =
        (await cache.lookupAll?.(pending, since, answered, stop, numbered)) ??
        (await cache.lookupEach(pending, since, answered, stop));
    } catch (error) {
      if (!(error instanceof SharedStateError)) throw error;
      lost = error;
    }
    if (fromCache > 0) ports.emit({ type: 'from-cache', addresses: fromCache, maxAgeMs: request.maxAgeMs });
  }
  const precheck = await precheckPending(request, checker, ports, pending, answered);
  // Only a run that pays is stopped for an unfinished list: the engine checks the rest for free.
  if (checker.cost) refuseUnfinished(request, ports, fromJournal, pending.size);
  ports.emit({ type: 'resumed', already: fromJournal, unique: scan.unique.size });
  const keptBefore = checker.keepsAnswers ? undefined : verdicts.answersSoFar;
  const toCheck = pending.size;
  // A run stopped while the cache was read checks nothing more: "checking the other N" would not be so.
  if (!request.signals.stop.aborted) ports.emit({ type: 'kept', kept: verdicts.size, toCheck, fromJournal, fromCache });
  return { verdicts, pending, fromJournal, fromCache, precheck, keptBefore, lost };
}

/**
 * What `answered` does, for an answer the cache's pass found by the address's number: one that does not say the
 * address's kind needs its key, to work it out.
 */
function answeredByNumber(verdicts: VerdictTable, pending: KeysExcept): FoundNumbered {
  return (ordinal, verdict, time, key) => {
    pending.excludeNumber(ordinal);
    if (verdict.free !== undefined) verdicts.set(ordinal, verdict, time);
    else verdicts.setKey(key(), verdict, ordinal, time);
  };
}

/** Addresses in the first chunk screened: the sending's claims take them a chunk of this size at a time. */
const FIRST_CHUNK = 1_000;

/** The cache's answers for the whole list, where its store reads them at once faster (VerdictCache.lookupAll). */
async function readWhole(
  request: CleanRequest,
  known: KnownSources,
  pending: KeysExcept,
  answered: FoundAnswer,
  numbered: FoundNumbered,
): Promise<number | undefined> {
  const cache = request.maxAgeMs > 0 && pending.size > 0 ? await known.cache?.() : undefined;
  return await cache?.lookupAll?.(
    pending,
    request.clock.now() - request.maxAgeMs,
    answered,
    request.signals.stop,
    numbered,
  );
}

/**
 * Whether the cache and the precheck can answer a chunk at a time as the run sends: for a run that pays and keeps
 * its answers, when no question waits on how many are left to send (the confirmation of a spend, an unfinished
 * earlier run without --resume or --restart).
 */
function screensAsItSends(request: CleanRequest, checker: Checker, ports: RunPorts, fromJournal: number): boolean {
  if (!checker.cost || !checker.keepsAnswers || request.dryRun) return false;
  const asks = ports.questions !== undefined && !request.yes;
  return !asks && (fromJournal === 0 || request.yes || request.earlierRun !== undefined);
}

/**
 * The precheck over what is left (when the checker pays and it is on), said in one event; without `onDecided`,
 * what it decides is only counted (a dry run). Its decisions are not journaled: a resumed run makes them again.
 */
export async function precheckPending(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  pending: KeysExcept,
  onDecided?: (key: string, verdict: Verdict) => void,
): Promise<PrecheckOutcome | undefined> {
  if (!checker.precheck || pending.size === 0) return undefined;
  const outcome = await runPrecheck(pending, checker.precheck, {
    signals: request.signals,
    onDecided,
    onDebug: (message) => ports.emit({ type: 'debug', message: `precheck: ${message}` }),
  });
  ports.emit({ type: 'precheck', outcome });
  return outcome;
}
