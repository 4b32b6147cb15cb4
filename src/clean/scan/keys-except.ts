import type { VerdictTable } from '../verdict/verdict-table.js';
import type { UniqueKeys } from './spill/unique-keys.js';

/** The list's keys but those `answered` (by number) and those excluded later, a bit each, without a copy. */
export class KeysExcept implements Iterable<string> {
  private readonly out: Uint8Array;
  private excluded = 0;

  constructor(
    private readonly keys: UniqueKeys,
    answered?: VerdictTable,
  ) {
    this.out = new Uint8Array(Math.ceil(keys.size / 8));
    if (!answered?.size) return;
    for (let ordinal = 0; ordinal < keys.size; ordinal++)
      if (answered.has(ordinal)) this.out[ordinal >>> 3]! |= 1 << (ordinal & 7);
    this.excluded = answered.size;
  }

  get size(): number {
    return this.keys.size - this.excluded;
  }

  has(key: string): boolean {
    const ordinal = this.keys.ordinal(key);
    return ordinal >= 0 && !this.isOut(ordinal);
  }

  /** Leaves an address of the list out from now on; returns its number (-1: not in the list). */
  exclude(key: string): number {
    const ordinal = this.keys.ordinal(key);
    if (ordinal < 0 || this.isOut(ordinal)) return ordinal;
    this.out[ordinal >>> 3]! |= 1 << (ordinal & 7);
    this.excluded++;
    return ordinal;
  }

  *[Symbol.iterator](): Generator<string> {
    if (this.size === 0) return;
    let ordinal = 0;
    for (const key of this.keys) if (!this.isOut(ordinal++)) yield key;
  }

  private isOut(ordinal: number): boolean {
    return ((this.out[ordinal >>> 3] as number) & (1 << (ordinal & 7))) !== 0;
  }
}
