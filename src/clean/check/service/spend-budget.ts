// What a run may still spend (--max-spend, the allowance). Addresses in flight count against both until they land,
// so concurrent batches never overshoot.

export type Fitted = { send: number } | { stop: 'max-spend' | 'allowance' } | { wait: Promise<void> };

/** What is known to be left of the month's allowance, and until when that holds (its renewal, else the month's end). */
export interface KnownCount {
  left: number;
  until: number;
  /** Heard from the service in this run (or counted down by it): believed without asking. */
  fresh: boolean;
}

export class SpendBudget {
  spent = 0;
  private inFlight = 0;
  /** Known before the run, or learned from a refusal: later batches fit it, so the month's last are spent. */
  private allowance?: KnownCount;
  // An allowance used up when the run began may be old news (an upgrade, a renewal): one address asks alone first
  // (`out`) while the others wait. Answered, the service decides from then on; refused, the run stops.
  private probe: 'none' | 'ready' | 'out' = 'none';
  private probeLanded?: { promise: Promise<void>; resolve: () => void };
  /** Resolved when addresses in flight land: a batch the rest of a limit waits on looks again. */
  private landed?: { promise: Promise<void>; resolve: () => void };

  constructor(
    private readonly maxSpend: number | undefined,
    allowance: KnownCount | undefined,
    private readonly now: () => number,
  ) {
    if (allowance?.left === 0 && !allowance.fresh) this.probe = 'ready';
    else this.allowance = allowance;
  }

  fit(wanted: number): Fitted {
    const bySpend = this.maxSpend === undefined ? Infinity : this.maxSpend - this.spent - this.inFlight;
    // What is in flight may fail and be sent again: only what was paid ends the run.
    if (bySpend <= 0) return bySpend + this.inFlight <= 0 ? { stop: 'max-spend' } : { wait: this.landing() };
    if (this.probe === 'out') return { wait: this.probeLanded!.promise };
    if (this.probe === 'ready') {
      this.probe = 'out';
      this.probeLanded = Promise.withResolvers<void>();
      return { send: 1 };
    }
    // A count of a month that has ended (or renewed) says nothing of this one: the service decides.
    if (this.allowance && this.now() >= this.allowance.until) this.allowance = undefined;
    const byAllowance = this.allowance === undefined ? Infinity : this.allowance.left - this.inFlight;
    if (byAllowance <= 0) return byAllowance + this.inFlight <= 0 ? { stop: 'allowance' } : { wait: this.landing() };
    return { send: Math.min(wanted, bySpend, byAllowance) };
  }

  /** The returned function says they landed, once: after `paid` for an answer, before a failure is handled. */
  sending(n: number): () => void {
    this.inFlight += n;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      this.inFlight -= n;
      this.landed?.resolve();
      this.landed = undefined;
      if (this.probe !== 'out') return;
      // Not answered: another address asks (a refusal stops the run before the waiting batches look again).
      this.probe = 'ready';
      this.probeLanded!.resolve();
    };
  }

  private landing(): Promise<void> {
    this.landed ??= Promise.withResolvers<void>();
    return this.landed.promise;
  }

  paid(n: number): void {
    this.spent += n;
    if (this.allowance) this.allowance.left = Math.max(0, this.allowance.left - n);
    if (this.probe !== 'out') return;
    this.probe = 'none';
    this.probeLanded!.resolve();
  }

  allowanceIs(left: number, until: number): void {
    this.allowance = { left, until, fresh: true };
  }
}
