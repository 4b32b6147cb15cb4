// Sending to the cleaning service: every answer journaled, and cached for later runs, as it arrives.
import type { Json } from '../../../api/shape.js';
import type { Clock } from '../../../clock.js';
import { CliError, messageOf } from '../../../errors.js';
import type { ListJournal } from '../../state/account-state.js';
import type { RateLimiter } from '../../state/rate-limiter.js';
import type { VerdictCache } from '../../state/verdict-cache.js';
import type { Verdict } from '../../verdict/verdict.js';
import type { CheckOutcome } from '../outcome.js';
import type { MoreKeys } from './key-source.js';
import { BatchSender, MAX_BATCH } from './send-batches.js';
import type { KnownCount } from './spend-budget.js';

export interface SendOptions {
  pending: Iterable<string>;
  /** Once `pending` runs dry: the next addresses (claimed as the run goes). */
  more?: MoreKeys;
  /** A failure to record stops the sending (storage). */
  journal: Pick<ListJournal, 'record'>;
  limiter: RateLimiter;
  client: { clean(emails: string[], signal?: AbortSignal): Promise<Json[]> };
  clock: Clock;
  concurrency: number;
  maxSpend?: number;
  allowance?: KnownCount;
  /** First stage of stopping: no new request; those in flight finish and are journaled. */
  stop: AbortSignal;
  /** Second stage: requests in flight are abandoned. */
  abort: AbortSignal;
  onEvent?: (event: SendEvent) => void;
  cache?: VerdictCache;
  /** Told once: the run goes on, the journal has the answers. */
  onCacheError?: (error: Error) => void;
}

export type SendEvent =
  /** For the ETA: `tookMs` none for answers another runner paid for; `sending` not kept yet. */
  | { type: 'answered'; addresses: number; spent: number; requests: number; tookMs?: number; sending?: number }
  | { type: 'in-flight'; addresses: number }
  | { type: 'waiting'; ms: number; why: 'rate' | 'retry' }
  | { type: 'retry'; message: string }
  | { type: 'limit-wait'; ms: number };

export async function sendToService(opts: SendOptions): Promise<CheckOutcome> {
  const { journal, limiter } = opts;
  let cacheWrites = Promise.resolve();
  let cacheFailed = false;
  const keep = (verdicts: Verdict[]) => {
    const cache = opts.cache;
    if (!cache || cacheFailed) return;
    cacheWrites = cacheWrites
      .then(() => cache.store(verdicts))
      .catch((error: unknown) => {
        if (!cacheFailed) opts.onCacheError?.(error instanceof Error ? error : new Error(String(error)));
        cacheFailed = true;
      });
  };
  const record = async (verdicts: Verdict[]) => {
    const written = journal.record(verdicts);
    keep(verdicts);
    await written;
  };
  const outcome = await new BatchSender({ ...opts, journal: { record } }).sendAll();
  await cacheWrites;
  try {
    limiter.flush?.();
  } catch (error) {
    // As a release that fails: the limit can no longer be kept, so the run stops (storage).
    const message = messageOf(error);
    outcome.stopped ??= { reason: 'storage', message, error: error instanceof CliError ? error : undefined };
  }
  if (opts.stop.aborted)
    outcome.stopped = { ...(outcome.stopped ?? { message: 'interrupted' }), reason: 'interrupted' };
  return outcome;
}

// Until the rate limit lets the last request start, plus one request's time, or the requests left at `concurrency`
// where the service is slower. An average pace would overstate it.
export function timeLeft(remaining: number, requestMs: number | undefined, concurrency: number, limiter: RateLimiter) {
  // Nothing left to send: the requests in flight end within about one request's time.
  if (remaining <= 0) return requestMs ?? 0;
  const requests = Math.ceil(remaining / MAX_BATCH);
  const byRate = limiter.timeToSend(requests);
  if (requestMs === undefined) return byRate;
  return Math.max(byRate + requestMs, Math.ceil(requests / concurrency) * requestMs);
}

export function minimumTime(requests: number, rate: { requests: number; windowMs: number }): number {
  if (requests <= 0) return 0;
  return Math.max(0, Math.ceil(requests / rate.requests) - 1) * rate.windowMs;
}
