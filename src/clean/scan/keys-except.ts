import type { KeySet } from '../state/verdict-cache.js';
import type { UniqueKeys } from './spill/unique-keys.js';

/**
 * The list's unique addresses but some, without a copy of the rest: those of `except` (a few, by address: a
 * journal's answers, all in the list) and those excluded later (by number, a bit each: as many as the list has).
 * Asking whether an address is in it needs the list's index (see UniqueKeys.dropIndex).
 */
export class KeysExcept implements KeySet {
  private readonly out: Uint8Array;
  private excluded = 0;
  /** The address `has` was last asked about, and its ordinal: excluding it just after (a count) looks up nothing. */
  private lastAsked?: string;
  private lastOrdinal = -1;

  constructor(
    private readonly keys: UniqueKeys,
    private readonly except: ReadonlyMap<string, unknown> = new Map(),
  ) {
    this.out = new Uint8Array(Math.ceil(keys.size / 8));
  }

  get size(): number {
    return this.keys.size - this.except.size - this.excluded;
  }

  /** Leaves an address of the list out from now on. */
  exclude(key: string): void {
    const ordinal = key === this.lastAsked ? this.lastOrdinal : this.keys.ordinal(key);
    if (ordinal < 0 || this.isOut(ordinal) || this.except.has(key)) return;
    this.out[ordinal >>> 3]! |= 1 << (ordinal & 7);
    this.excluded++;
  }

  has(key: string): boolean {
    const ordinal = this.keys.ordinal(key);
    this.lastAsked = key;
    this.lastOrdinal = ordinal;
    return ordinal >= 0 && !this.isOut(ordinal) && !this.except.has(key);
  }

  *[Symbol.iterator](): Generator<string> {
    for (const [ordinal, key] of this.keys.entries()) if (!this.isOut(ordinal) && !this.except.has(key)) yield key;
  }

  private isOut(ordinal: number): boolean {
    return ((this.out[ordinal >>> 3] as number) & (1 << (ordinal & 7))) !== 0;
  }
}
