import { byCodeUnits } from '../../quantities.js';
import { DomainIndex, grown } from '../verdict/domain-index.js';

export interface DomainMix {
  domain: string;
  rows: number;
  statuses: Record<string, number>;
}

/** Rows by domain and status: the domain hashed inside the row's key, never cut out; its counts in typed arrays. */
export class DomainMixes {
  private readonly index = new DomainIndex();
  private width = 4;
  private counts = new Float64Array(this.index.capacity * this.width);
  private firsts = new Float64Array(this.index.capacity * this.width);
  private seen = 0;

  add(key: string, at: number, status: number): void {
    const domain = this.index.add(key, at);
    if (this.counts.length < this.index.capacity * this.width) {
      this.counts = grown(this.counts, this.index.capacity * this.width);
      this.firsts = grown(this.firsts, this.index.capacity * this.width);
    }
    if (status >= this.width) this.widen(status + 1);
    const index = domain * this.width + status;
    if (this.counts[index]!++ === 0) this.firsts[index] = ++this.seen;
  }

  top(n: number, statusNames: readonly string[]): DomainMix[] {
    const all = this.index.domains.map((domain, d) => {
      const statuses: number[] = [];
      let rows = 0;
      for (let s = 0; s < this.width; s++) {
        rows += this.counts[d * this.width + s]!;
        if (this.counts[d * this.width + s]! > 0) statuses.push(s);
      }
      statuses.sort((a, b) => this.firsts[d * this.width + a]! - this.firsts[d * this.width + b]!);
      const byStatus: Record<string, number> = {};
      for (const s of statuses) byStatus[statusNames[s]!] = this.counts[d * this.width + s]!;
      return { domain, rows, statuses: byStatus };
    });
    return all.sort((a, b) => b.rows - a.rows || byCodeUnits(a.domain, b.domain)).slice(0, n);
  }

  private widen(width: number): void {
    const [counts, firsts] = [this.counts, this.firsts];
    this.counts = new Float64Array(this.index.capacity * width);
    this.firsts = new Float64Array(this.index.capacity * width);
    for (let d = 0; d < this.index.domains.length; d++) {
      for (let s = 0; s < this.width; s++) {
        this.counts[d * width + s] = counts[d * this.width + s]!;
        this.firsts[d * width + s] = firsts[d * this.width + s]!;
      }
    }
    this.width = width;
  }
}
