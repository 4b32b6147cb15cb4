// The booking side of a rate limit: what sending needs of a limiter, whichever store keeps its state.

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
  /** How long until `requests` more sends could all have started, as far as is known (for ETAs). */
  timeToSend(requests: number): number;
  /** The same, from the sends every run of the account booked so far (read now from the store: a dry run's wait). */
  estimate(requests: number): Promise<number>;
}
