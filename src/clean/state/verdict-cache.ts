// The verdict cache: every answer the service gave, per account and service, with its time, so a later run of
// any list does not pay again for an address answered recently. Two stores implement it: SQLite in the data
// directory (one machine), Redis (runners on several machines, --shared).
import type { Verdict } from '../verdict/verdict.js';

export interface CacheStats {
  /** Addresses held. */
  entries: number;
  /** Time of the oldest and newest answer held (ISO 8601), null when empty. */
  oldest: string | null;
  newest: string | null;
  /** Bytes the store uses on disk (or in memory for Redis), when it can tell. */
  bytes: number | null;
}

/** Addresses asked about: how many, whether one is among them, and each in turn (a Set, or a list's own keys). */
export interface KeySet extends Iterable<string> {
  readonly size: number;
  has(key: string): boolean;
  /** Which of many keys it holds, each told by its index, in order: faster than `has` a key for a list's own keys. */
  hasEach?(keys: readonly string[], found: (index: number) => void): void;
  /**
   * hasEach for keys given as UTF-8 (key i is bytes[starts[i], starts[i + 1]), with its hash: see
   * UniqueKeys.ordinalsOfBytes); each one held is told with its number among the list's keys. No text is made.
   */
  hasEachOfBytes?(
    bytes: Uint8Array,
    starts: Int32Array,
    hashes: Uint32Array,
    found: (index: number, ordinal: number) => void,
  ): void;
}

/**
 * An answer read for an address. `time`, when given, is when the service gave it (epoch ms), in place of the
 * verdict's `checkedAt`: answers alike but for their time share one verdict, where an object for each batch's (each
 * its own time) cost 350 bytes a batch at 10M addresses.
 */
export type FoundAnswer = (key: string, verdict: Verdict, time?: number) => void;

/**
 * An answer for the address numbered `ordinal` among the keys asked about (a list's: KeySet.hasEachOfBytes). Its
 * text is made only if `key()` is called, then or never: a million strings were a fifth of a copy's pass.
 */
export type FoundNumbered = (ordinal: number, verdict: Verdict, time: number, key: () => string) => void;

/** The verdict as of `time` (see FoundAnswer). */
export const atTime = (verdict: Verdict, time?: number): Verdict =>
  time === undefined ? verdict : { ...verdict, checkedAt: new Date(time).toISOString() };

/** atTime, one object for answers alike at one time: for a few thousand answers at most (a lookup's). */
export function sharedAtTime(): (verdict: Verdict, time?: number) => Verdict {
  const made = new Map<Verdict, Map<number, Verdict>>();
  return (verdict, time) => {
    if (time === undefined) return verdict;
    let atTimes = made.get(verdict);
    if (!atTimes) made.set(verdict, (atTimes = new Map()));
    let timed = atTimes.get(time);
    if (!timed) atTimes.set(time, (timed = atTime(verdict, time)));
    return timed;
  };
}

export interface VerdictCache {
  /**
   * The cached verdicts of these addresses answered at or after `since` (epoch ms), keyed by address; each with
   * the `checkedAt` of its original answer.
   */
  lookup(keys: Iterable<string>, since: number): Promise<Map<string, Verdict>>;
  /**
   * Like lookup, but each answer goes to `found` as it is read, none kept: for a list of millions. Returns how many.
   * `stop` ends the read between batches (a minute's work at 10M addresses): what was found so far stands.
   */
  lookupEach(keys: Iterable<string>, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number>;
  /**
   * lookupEach for a whole list at once where the store does that faster than a chunk at a time (a list that is a
   * good part of the cache: one pass over it); undefined, having read nothing, where it does not. With `numbered`,
   * an answer for a key the set finds by its bytes goes there instead of `found`.
   */
  lookupAll?(
    keys: KeySet,
    since: number,
    found: FoundAnswer,
    stop?: AbortSignal,
    numbered?: FoundNumbered,
  ): Promise<number | undefined>;
  /**
   * A list of `listBytes` is about to be read, and then perhaps looked up whole (lookupAll): a store that reads
   * itself whole for that may begin now, while the list is read, keeping what it reads ahead in a private file in
   * `spillDir`. Ended by lookupAll, endReadAhead or close.
   */
  readAhead?(since: number, listBytes: number, spillDir: string): void;
  /** Ends what readAhead began, if lookupAll has not taken it: the run that asked ended before. */
  endReadAhead?(): Promise<void>;
  /**
   * How many of these addresses have an answer at or after `since`, each told to `found` if given, without building
   * their verdicts: what `--dry-run` needs, fast for a million addresses.
   */
  count(keys: KeySet, since: number, found?: (key: string) => void, stop?: AbortSignal): Promise<number>;
  /** Keeps answers as they arrive (their `checkedAt` is when the service gave them). */
  store(verdicts: readonly Verdict[]): Promise<void>;
  stats(): Promise<CacheStats>;
  /** Forgets answers older than `before` (epoch ms), or all; returns how many were removed. */
  clear(before?: number): Promise<number>;
  close(): Promise<void>;
}
