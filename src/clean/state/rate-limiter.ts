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
 * How long a send holds its slot beyond W after its answer: what covers the server's clock measuring W shorter than
 * ours (clock rates, whole milliseconds). A long window keeps a whole second, in case arrivals are stamped in seconds.
 */
export function limitMargin(rate: Rate): number {
  return rate.windowMs >= 100_000 ? 1_000 : Math.max(5, rate.windowMs * 0.001);
}

/**
 * How long until `requests` more sends could all have started, given when each held slot frees (`holds`) and each
 * new send holding one `span`. A send in flight is taken as answered now: its full timeout made ETAs far too long.
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
