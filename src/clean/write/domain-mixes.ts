import { byCodeUnits } from '../../quantities.js';

export interface DomainMix {
  domain: string;
  rows: number;
  statuses: Record<string, number>;
}

const FIRST_SLOTS = 1 << 10;
const FIRST_DOMAINS = 1 << 9;

/** Rows by domain and status: the domain hashed inside the row's key, never cut out; its counts in typed arrays. */
export class DomainMixes {
  private slots = new Int32Array(FIRST_SLOTS);
  private readonly domains: string[] = [];
  private hashes = new Int32Array(FIRST_DOMAINS);
  private width = 4;
  private counts = new Float64Array(FIRST_DOMAINS * this.width);
  private firsts = new Float64Array(FIRST_DOMAINS * this.width);
  private seen = 0;

  add(key: string, at: number, status: number): void {
    let hash = 0x811c9dc5;
    for (let i = at + 1; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    const length = key.length - at - 1;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    let domain = -1;
    for (let held = this.slots[slot]!; held !== 0; held = this.slots[slot]!) {
      const candidate = this.domains[held - 1]!;
      if (this.hashes[held - 1] === hash && candidate.length === length && key.endsWith(candidate)) {
        domain = held - 1;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (domain < 0) domain = this.added(key.slice(at + 1), hash, slot);
    if (status >= this.width) this.widen(status + 1);
    const index = domain * this.width + status;
    if (this.counts[index]!++ === 0) this.firsts[index] = ++this.seen;
  }

  top(n: number, statusNames: readonly string[]): DomainMix[] {
    const all = this.domains.map((domain, d) => {
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

  private added(domain: string, hash: number, slot: number): number {
    const number = this.domains.push(domain) - 1;
    this.slots[slot] = number + 1;
    if (number === this.hashes.length) {
      this.hashes = grown(this.hashes, this.hashes.length * 2);
      this.counts = grown(this.counts, this.hashes.length * this.width);
      this.firsts = grown(this.firsts, this.hashes.length * this.width);
    }
    this.hashes[number] = hash;
    if (this.domains.length * 2 > this.slots.length) this.rehash();
    return number;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let d = 0; d < this.domains.length; d++) {
      let slot = this.hashes[d]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = d + 1;
    }
  }

  private widen(width: number): void {
    const [counts, firsts] = [this.counts, this.firsts];
    this.counts = new Float64Array(this.hashes.length * width);
    this.firsts = new Float64Array(this.hashes.length * width);
    for (let d = 0; d < this.domains.length; d++) {
      for (let s = 0; s < this.width; s++) {
        this.counts[d * width + s] = counts[d * this.width + s]!;
        this.firsts[d * width + s] = firsts[d * this.width + s]!;
      }
    }
    this.width = width;
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, length: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}
