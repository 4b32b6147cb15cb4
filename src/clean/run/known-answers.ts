// What a run knows before it checks anything: the journal, the cache, the precheck. Each answer goes into the
// verdict table by address number and out of `pending` (a bit each), so a list of millions is never copied.
import { type PrecheckOutcome, runPrecheck } from '../check/precheck.js';
import { KeysExcept } from '../scan/keys-except.js';
import type { ScanResult } from '../scan/scan.js';
import { SharedStateError } from '../state/account-state.js';
import type { FoundAnswer } from '../state/verdict-cache.js';
import type { Verdict } from '../verdict/verdict.js';
import type { Checker, KnownSources } from './checker.js';
import { refuseUnfinished } from './earlier-run.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';

export type KnownAnswers = Awaited<ReturnType<typeof answerKnown>>;

export async function answerKnown(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  scan: ScanResult,
  known: KnownSources,
) {
  const verdicts = known.journaled;
  const fromJournal = verdicts.size;
  const pending = new KeysExcept(scan.unique, verdicts);
  const answered = (key: string, verdict: Verdict, time?: number) =>
    verdicts.setKey(key, verdict, pending.exclude(key), time);
  const { fromCache, lost } = await readCache(request, known, scan, pending, answered);
  if (fromCache > 0) ports.emit({ type: 'from-cache', addresses: fromCache, maxAgeMs: request.maxAgeMs });
  // Addresses the journal or the cache answered were never looked up: their domains are, for their provider.
  const alsoAsk = fromJournal + fromCache > 0 ? scan.unique : undefined;
  const precheck = await precheckPending(request, checker, ports, pending, answered, alsoAsk);
  // Only a run that pays is stopped for an unfinished list: the engine checks the rest for free.
  if (checker.cost) refuseUnfinished(request, ports, fromJournal, pending.size);
  ports.emit({ type: 'resumed', already: fromJournal, unique: scan.unique.size });
  // For a checker whose answers are not kept: what an interrupted run counts (see VerdictTable.answersSoFar).
  const keptBefore = checker.kind === 'service' ? undefined : verdicts.answersSoFar;
  const toCheck = pending.size;
  // A run stopped while the cache was read checks nothing more: "checking the other N" would not be so.
  if (!request.signals.stop.aborted) ports.emit({ type: 'kept', kept: verdicts.size, toCheck, fromJournal, fromCache });
  return { verdicts, pending, fromJournal, fromCache, precheck, keptBefore, lost };
}

/** --max-age 0, or nothing left to ask about, leaves the cache unopened. */
export async function readCache(
  request: CleanRequest,
  known: KnownSources,
  scan: ScanResult,
  pending: KeysExcept,
  answered: FoundAnswer,
): Promise<{ fromCache: number; lost?: SharedStateError }> {
  const cache = request.maxAgeMs > 0 && pending.size > 0 ? await known.cache?.() : undefined;
  if (!cache) return { fromCache: 0 };
  const since = request.clock.now() - request.maxAgeMs;
  // The answers come in the cache's order: each is found among the list's keys in memory.
  scan.unique.holdDiskPart();
  try {
    // Leaving an answered key out of `pending` while it is read does not change what is to come.
    return { fromCache: await cache.lookup(pending, since, answered, request.signals.stop) };
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    return { fromCache: 0, lost: error };
  }
}

/** Without `onDecided`, what it decides is only counted (a dry run). Its decisions are not journaled. */
export async function precheckPending(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  pending: KeysExcept,
  onDecided?: (key: string, verdict: Verdict) => void,
  alsoAsk?: Iterable<string>,
): Promise<PrecheckOutcome | undefined> {
  // Only a run that writes (onDecided) names providers; one with nothing to send asks DNS about them alone.
  const providers = onDecided && checker.providers;
  const onlyProviders = pending.size === 0;
  if (!checker.precheck || (onlyProviders && !(providers && alsoAsk))) return undefined;
  const outcome = await runPrecheck(pending, checker.precheck, {
    signals: request.signals,
    now: () => request.clock.now(),
    onDecided,
    onDebug: (message) => ports.emit({ type: 'debug', message: `precheck: ${message}` }),
    providers,
    alsoAsk: providers ? alsoAsk : undefined,
  });
  if (onlyProviders) return undefined;
  ports.emit({ type: 'precheck', outcome });
  return outcome;
}
