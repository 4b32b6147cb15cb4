// What a run may still spend: --max-spend, and what the service said is left of the monthly allowance. Addresses
// in flight count against both until their answer (or failure) comes back, so concurrent batches never overshoot.

export type Fitted = { send: number } | { stop: 'max-spend' | 'allowance' };

export class SpendBudget {
  /** Addresses sent in answered requests. */
  spent = 0;
  /** Addresses sent and not yet answered. */
  private inFlight = 0;
  /** Known before the run, or learned from a refusal: later batches fit it, so the month's last are spent. */
  private allowanceLeft?: number;

  /** `allowanceLeft`: what is known to be left of the month's allowance when the run starts. */
  constructor(
    private readonly maxSpend?: number,
    allowanceLeft?: number,
  ) {
    this.allowanceLeft = allowanceLeft;
  }

  /** How many of `wanted` addresses may go now, or why none may. */
  fit(wanted: number): Fitted {
    const bySpend = this.maxSpend === undefined ? Infinity : this.maxSpend - this.spent - this.inFlight;
    const byAllowance = this.allowanceLeft === undefined ? Infinity : this.allowanceLeft - this.inFlight;
    if (bySpend <= 0) return { stop: 'max-spend' };
    if (byAllowance <= 0) return { stop: 'allowance' };
    return { send: Math.min(wanted, bySpend, byAllowance) };
  }

  /** `n` addresses are on their way; the returned function says they landed (answered or failed), once. */
  sending(n: number): () => void {
    this.inFlight += n;
    let counted = true;
    return () => {
      if (counted) this.inFlight -= n;
      counted = false;
    };
  }

  /** `n` addresses were answered, so paid for. */
  paid(n: number): void {
    this.spent += n;
    if (this.allowanceLeft !== undefined) this.allowanceLeft = Math.max(0, this.allowanceLeft - n);
  }

  /** The service said this much is left. */
  allowanceIs(left: number): void {
    this.allowanceLeft = left;
  }
}
