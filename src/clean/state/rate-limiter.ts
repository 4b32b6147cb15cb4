// The booking side of a rate limit: what sending needs of a limiter, whichever store keeps its state.
import type { Rate } from '../../config/rate.js';

export interface Booking {
  id: string;
  waitedMs: number;
}

/**
 * At most N sends in any window of W, shared by the runs of one account: on this machine (a state file) or on
 * several (Redis, --shared).
 */
export interface RateLimiter {
  /** Waits for a free slot and books it; `onWait` hears once how long the wait looks when there is one. */
  acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Booking>;
  /**
   * The booked send has ended (answered or failed) now. `unused`: it never reached a server (refused, no such
   * host), so the service did not count it: the slot is given back as if never booked.
   */
  release(booking: Booking, unused?: boolean): void | Promise<void>;
  /**
   * Where a store can: the send was answered now, recorded for other runs a moment later (with the next booking, or
   * at `flush`). Until then they see it in flight, which holds its slot longer, never shorter.
   */
  releaseLater?(booking: Booking): void;
  /** Records what `releaseLater` kept; throws when the state cannot be written. */
  flush?(): void;
  /** How long until `requests` more sends could all have started, as far as is known (for ETAs). */
  timeToSend(requests: number): number;
  /** The same, from the sends every run of the account booked so far (read now from the store: a dry run's wait). */
  estimate(requests: number): Promise<number>;
}

/**
 * How long a send holds its slot beyond W after its answer. The server counted the send before it answered, so a
 * next send booked W after that answer arrives more than W after it by any clock; what is left to cover is the
 * server's clock measuring that W shorter than ours: its rate (NTP slews a clock by at most 0.05%, so 0.1% between
 * two), and timestamps in whole milliseconds compared inclusively (1 ms). Hence 0.1% of W, at least 5 ms. A window
 * of 100 s or more (the spec's is 5 minutes) keeps the whole second it always had, in case the server stamps
 * arrivals in whole seconds; below that a second would cost 1% or more of the throughput, and 1% of W (the margin
 * until 2026-11-27) did not cover it either. 50 ms a window of 5 s was 135 ms of a 10,000-address run.
 */
export function limitMargin(rate: Rate): number {
  return rate.windowMs >= 100_000 ? 1_000 : Math.max(5, rate.windowMs * 0.001);
}

/**
 * How long until `requests` more sends could all have started, given when each slot held now frees (`holds`), if
 * each new send were answered at once and so held its slot one `span`. A send still in flight holds its slot
 * until a window after its answer, which for an ETA is best taken as coming now: a hold beyond `now + span` can
 * only be such a send (the limiters keep it for the request timeout, in case its run was killed), and counting
 * that whole timeout made ETAs 80% too long.
 */
export function timeToSendAfter(
  holds: readonly number[],
  requests: number,
  { rate, span, now }: { rate: Rate; span: number; now: number },
): number {
  if (requests <= 0) return 0;
  const holding = holds.filter((until) => until > now).map((until) => Math.min(until, now + span));
  const free = Math.max(0, rate.requests - holding.length);
  if (requests <= free) return 0;
  const expiries = [...holding, ...Array.from({ length: free }, () => now + span)]
    .sort((a, b) => a - b)
    .slice(-rate.requests);
  const waiting = requests - free - 1;
  return expiries[waiting % rate.requests]! + Math.floor(waiting / rate.requests) * span - now;
}
