import type { KeySet } from '../state/verdict-cache.js';
import type { VerdictTable } from '../verdict/verdict-table.js';
import type { UniqueKeys } from './spill/unique-keys.js';

/**
 * The list's unique addresses but some, without a copy of the rest: those `answered` already (a journal's answers,
 * by number) and those excluded later, a bit each. Asking whether an address is in it needs the list's index (see
 * UniqueKeys.dropIndex).
 */
export class KeysExcept implements KeySet {
  private readonly out: Uint8Array;
  private excluded = 0;
  /** The address `has` was last asked about, and its ordinal: excluding it just after (a count) looks up nothing. */
  private lastAsked?: string;
  private lastOrdinal = -1;

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

  /** Leaves an address of the list out from now on; returns its number (-1: not in the list). */
  exclude(key: string): number {
    return this.excludeNumber(key === this.lastAsked ? this.lastOrdinal : this.keys.ordinal(key));
  }

  /** exclude, by the address's number (-1: none). */
  excludeNumber(ordinal: number): number {
    if (ordinal < 0 || this.isOut(ordinal)) return ordinal;
    this.out[ordinal >>> 3]! |= 1 << (ordinal & 7);
    this.excluded++;
    return ordinal;
  }

  has(key: string): boolean {
    const ordinal = this.keys.ordinal(key);
    this.lastAsked = key;
    this.lastOrdinal = ordinal;
    return ordinal >= 0 && !this.isOut(ordinal);
  }

  /** Each of `keys` it holds, by index; `exclude` of the one just told looks up nothing. */
  hasEach(keys: readonly string[], found: (index: number) => void): void {
    const ordinals = this.keys.ordinals(keys);
    for (let i = 0; i < keys.length; i++) {
      const ordinal = ordinals[i] as number;
      if (ordinal < 0 || this.isOut(ordinal)) continue;
      this.lastAsked = keys[i];
      this.lastOrdinal = ordinal;
      found(i);
    }
  }

  hasEachOfBytes(
    bytes: Uint8Array,
    starts: Int32Array,
    hashes: Uint32Array,
    found: (index: number, ordinal: number) => void,
  ): void {
    const ordinals = this.keys.ordinalsOfBytes(bytes, starts, hashes);
    for (let i = 0; i < ordinals.length; i++) {
      const ordinal = ordinals[i] as number;
      if (ordinal >= 0 && !this.isOut(ordinal)) found(i, ordinal);
    }
  }

  *[Symbol.iterator](): Generator<string> {
    if (this.size === 0) return;
    for (const [ordinal, key] of this.keys.entries()) if (!this.isOut(ordinal)) yield key;
  }

  private isOut(ordinal: number): boolean {
    return ((this.out[ordinal >>> 3] as number) & (1 << (ordinal & 7))) !== 0;
  }
}
