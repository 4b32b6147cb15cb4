// What a run pays, booked in the account's spend as it pays: a line a minute at most, and apart at each month's turn,
// so that each month gets its own count and a killed run loses at most a minute's.
import type { Clock } from '../../clock.js';
import type { MachineState } from './account-state.js';
import { monthOf } from './month.js';

const BOOK_EVERY_MS = 60_000;

export class SpendBooking {
  /** Addresses the run paid for so far, as told. */
  private told = 0;
  /** Paid and not booked yet, the last of them at `pendingAt`. */
  private pending = 0;
  private pendingAt = 0;
  private bookedAt: number;

  constructor(
    private readonly state: MachineState,
    private readonly clock: Clock,
  ) {
    this.bookedAt = clock.now();
  }

  /** The run has paid for `total` addresses in all. */
  paidSoFar(total: number): void {
    if (total <= this.told) return;
    const now = this.clock.now();
    if (this.pending > 0 && monthOf(now) !== monthOf(this.pendingAt)) void this.book();
    this.pending += total - this.told;
    this.told = total;
    this.pendingAt = now;
    if (now - this.bookedAt >= BOOK_EVERY_MS) void this.book();
  }

  /** The run ended having paid for `total`: what is not booked is. */
  async finish(total: number): Promise<void> {
    this.paidSoFar(total);
    await this.book();
  }

  /** A store that fails must not fail what was paid for: the count is a courtesy for `mailclean allowance`. */
  private book(): Promise<void> {
    const [addresses, at] = [this.pending, this.pendingAt];
    this.pending = 0;
    this.bookedAt = this.clock.now();
    return addresses > 0 ? this.state.recordSpend(addresses, at).catch(() => undefined) : Promise.resolve();
  }
}
