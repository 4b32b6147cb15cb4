// What a person decided about a list's typo suggestions, one step at a time so that undo takes back a whole step
// (accepting every row of a domain is one step). Pure: the command draws and reads keys, the list module writes.

/** A row the review shows: an address with a suggested fix and no decision in the file yet. */
export interface Item {
  /** The row's place among the list's rows (0 for the first row after the header). */
  row: number;
  /** The file's line where the row starts, for people. */
  line: number;
  typed: string;
  fix: string;
}

export type Decision = { row: number; typed: string } & ({ kind: 'accept'; address: string } | { kind: 'reject' });

/** One key's worth of decisions: what undo takes back. */
export type Step = readonly Decision[];

export class Review {
  private readonly steps: Step[] = [];
  private readonly decided = new Map<number, Decision>();

  constructor(readonly items: readonly Item[]) {}

  /** The first row without a decision, in the list's order; undefined when every row has one. */
  current(): Item | undefined {
    return this.items.find((item) => !this.decided.has(item.row));
  }

  /** Where the current row stands among the items (1-based), or past the last when all are decided. */
  position(): number {
    const current = this.current();
    return current === undefined ? this.items.length + 1 : this.items.indexOf(current) + 1;
  }

  decisionOf(row: number): Decision | undefined {
    return this.decided.get(row);
  }

  get history(): readonly Step[] {
    return this.steps;
  }

  /** The current row fixed to `address` (its suggestion, or what the person typed instead). */
  accept(address = this.current()?.fix): Step {
    const item = this.current();
    if (item === undefined || address === undefined) return [];
    return this.take([{ row: item.row, typed: item.typed, kind: 'accept', address }]);
  }

  reject(): Step {
    const item = this.current();
    return item === undefined ? [] : this.take([{ row: item.row, typed: item.typed, kind: 'reject' }]);
  }

  /** Every undecided row typed at the current row's domain, each fixed to its own suggestion. */
  acceptDomain(): Step {
    const item = this.current();
    if (item === undefined) return [];
    const domain = domainOf(item.typed);
    return this.take(
      this.items
        .filter((other) => !this.decided.has(other.row) && domainOf(other.typed) === domain)
        .map((other): Decision => ({ row: other.row, typed: other.typed, kind: 'accept', address: other.fix })),
    );
  }

  /** Takes back the last step; empty when there was none. */
  undo(): Step {
    const step = this.steps.pop() ?? [];
    for (const decision of step) this.decided.delete(decision.row);
    return step;
  }

  /** Replays steps saved earlier, keeping those whose rows still hold the address they were decided for. */
  replay(saved: readonly Step[]): { kept: number; dropped: number } {
    const typedAt = new Map(this.items.map((item) => [item.row, item.typed]));
    let kept = 0;
    let dropped = 0;
    for (const step of saved) {
      const valid = step.filter((d) => typedAt.get(d.row) === d.typed && !this.decided.has(d.row));
      dropped += step.length - valid.length;
      kept += valid.length;
      if (valid.length > 0) this.take(valid);
    }
    return { kept, dropped };
  }

  /** Every decision made, by row. */
  decisions(): ReadonlyMap<number, Decision> {
    return this.decided;
  }

  counts(): { accepted: number; rejected: number; left: number } {
    let accepted = 0;
    for (const decision of this.decided.values()) if (decision.kind === 'accept') accepted++;
    const rejected = this.decided.size - accepted;
    return { accepted, rejected, left: this.items.length - this.decided.size };
  }

  private take(step: Decision[]): Step {
    if (step.length === 0) return step;
    this.steps.push(step);
    for (const decision of step) this.decided.set(decision.row, decision);
    return step;
  }
}

/** The part after the last `@`, letter case folded: `Ann@GMIAL.com` and `bob@gmial.com` share a domain. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}
