// The booking side of a rate limit, and the rule every store's limiter applies to the sends it keeps.
import type { Clock } from '../../clock.js';
import type { Rate } from '../../config/rate.js';

export interface Booking {
  id: string;
  waitedMs: number;
}

/** At most N sends in any window of W, shared by the runs of one account on this machine or, shared, on several. */
export interface RateLimiter {
  /** Waits for a free slot and books it; `onWait` hears once how long the wait looks when there is one. */
  acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Booking>;
  /** The send has ended now; `unused` (it never reached a server, so was not counted) gives the slot back. */
  release(booking: Booking, unused?: boolean): void | Promise<void>;
  /** Where a store can, `release` written a moment later: other runs meanwhile see the send in flight, never less. */
  releaseLater?(booking: Booking): void;
  /** Writes what `releaseLater` kept; throws when the state cannot be written. */
  flush?(): void;
  /** How long until `requests` more sends could all have started, as far as is known (for ETAs). */
  timeToSend(requests: number): number;
  /** The same, from what every run booked so far, read now from the store (a dry run's wait). */
  estimate(requests: number): Promise<number>;
}

/** The server counts a send when it arrives, so a send holds its slot until `span` after its answer. */
export class LimitTimings {
  readonly span: number;
  readonly pollMs: number;

  constructor(
    rate: Rate,
    marginMs = limitMargin(rate),
    readonly pendingMs = 30_000,
  ) {
    this.span = rate.windowMs + marginMs;
    this.pollMs = Math.max(20, Math.min(1_000, rate.windowMs / 50));
  }
}

/** Covers the server's clock measuring W shorter than ours; a long window keeps a second, for arrivals in seconds. */
export function limitMargin(rate: Rate): number {
  return rate.windowMs >= 100_000 ? 1_000 : Math.max(5, rate.windowMs * 0.001);
}

/** A try at booking a slot: the wait before one frees, and whether that time is known (an answer came back). */
export type TryBook = () => Promise<{ wait: number; known: boolean }> | { wait: number; known: boolean };

/** Tries to book until a try finds no wait; `onWait` hears the first wait. Returns the time waited in all. */
export async function bookWhenFree(
  tryBook: TryBook,
  {
    clock,
    pollMs,
    signal,
    onWait,
    waited = 0,
  }: { clock: Clock; pollMs: number; signal?: AbortSignal; onWait?: (ms: number) => void; waited?: number },
): Promise<number> {
  let waitedMs = waited;
  for (;;) {
    const { wait, known } = await tryBook();
    if (wait === 0) return waitedMs;
    if (waitedMs === waited) onWait?.(wait);
    // A slot whose answer came back frees at a known time; one in flight frees when it ends, seen only by looking.
    const nap = known ? wait : Math.min(wait, pollMs);
    waitedMs += nap;
    await clock.sleep(nap, signal);
  }
}

/** A send in flight is taken as answered now: its full timeout made ETAs far too long. */
export function timeToSendAfter(
  holds: readonly number[],
  requests: number,
  { rate, span, now }: { rate: Rate; span: number; now: number },
): number {
  if (requests <= 0) return 0;
  const holding = holds.filter((until) => until > now).map((until) => Math.min(until, now + span));
  const free = Math.max(0, rate.requests - holding.length);
  if (requests <= free) return 0;
  holding.sort((a, b) => a - b);
  // The slots free in turn: the latest `rate.requests` holds, then the free slots (each a window from now, no
  // earlier than any hold); they are indexed, not listed, as a high rate would make that list long.
  const waiting = requests - free - 1;
  const slot = waiting % rate.requests;
  const skipped = holding.length - (rate.requests - free);
  const expiry = slot < holding.length - skipped ? (holding[skipped + slot] as number) : now + span;
  return expiry + Math.floor(waiting / rate.requests) * span - now;
}
