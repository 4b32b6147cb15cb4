// A few addresses checked at once (`mailclean verify`): by the cleaning service, through the account's limiter and
// its verdict cache (answers within --max-age are not paid again, new ones are kept), or by the built-in engine.
import type { Clock } from '../../clock.js';
import type { Engine } from '../../verify/index.js';
import { atTime } from '../state/verdict-cache.js';
import type { Verdict } from '../verdict/verdict.js';
import { engineVerdict } from './engine/check-with-engine.js';
import { type CheckOutcome, nothingSpent } from './outcome.js';
import { type SendOptions, sendToService } from './service/send-to-service.js';

export interface FewChecked {
  results: Map<string, Verdict>;
  fromCache: Set<string>;
  outcome: CheckOutcome;
}

export interface ServiceCheck
  extends Pick<SendOptions, 'client' | 'limiter' | 'cache' | 'clock' | 'stop' | 'abort' | 'onCacheError'> {
  /** Cached answers at or after this time count (epoch ms); undefined: the cache is not read. */
  since?: number;
  /**
   * Decides for free what it can of the addresses the cache did not answer (the precheck); those are not sent.
   * `cached`: the addresses the cache answered, whose domains it looks up for their provider alone.
   */
  precheck?: (keys: string[], cached: string[]) => Promise<ReadonlyMap<string, Verdict>>;
}

export async function checkFewWithService(keys: string[], opts: ServiceCheck): Promise<FewChecked> {
  const cached = new Set<string>();
  const results = new Map<string, Verdict>();
  if (opts.cache && opts.since !== undefined)
    await opts.cache.lookup(new Set(keys), opts.since, (key, verdict, time) => {
      cached.add(key);
      results.set(key, { ...atTime(verdict, time), key });
    });
  const uncached = keys.filter((key) => !cached.has(key));
  const decided = opts.precheck ? await opts.precheck(uncached, [...cached]) : new Map<string, Verdict>();
  for (const [key, verdict] of decided) results.set(key, verdict);
  const outcome = await sendToService({
    ...opts,
    pending: uncached.filter((key) => !decided.has(key)),
    journal: {
      record: async (verdicts) => {
        for (const verdict of verdicts) results.set(verdict.key, verdict);
      },
    },
    concurrency: 1,
  });
  return { results, fromCache: cached, outcome };
}

export async function checkFewWithEngine(
  keys: string[],
  engine: Engine,
  stop: AbortSignal,
  clock: Clock,
): Promise<FewChecked> {
  const results = new Map<string, Verdict>();
  await Promise.all(
    keys.map(async (key) => {
      if (stop.aborted) return;
      results.set(key, engineVerdict(key, await engine.verify(key), new Date(clock.now()).toISOString()));
    }),
  );
  return { results, fromCache: new Set(), outcome: nothingSpent(stop) };
}
