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

/**
 * An answer read for an address, given when `time` says (epoch ms), not its verdict's `checkedAt`: answers alike
 * but for their time share one verdict, so a million answers are not a million objects.
 */
export type FoundAnswer = (key: string, verdict: Verdict, time: number) => void;

/** The verdict as of `time`, for a caller that keeps it (see FoundAnswer). */
export const atTime = (verdict: Verdict, time: number): Verdict => ({
  ...verdict,
  checkedAt: new Date(time).toISOString(),
});

export interface VerdictCache {
  /**
   * Tells `found` each answer for these addresses (distinct) given at or after `since` (epoch ms), as it is read;
   * returns how many. `stop` ends the read early: what was found so far stands.
   */
  lookup(keys: Iterable<string>, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number>;
  /** Keeps answers as they arrive (their `checkedAt` is when the service gave them). */
  store(verdicts: readonly Verdict[]): Promise<void>;
  stats(): Promise<CacheStats>;
  /** Forgets answers older than `before` (epoch ms), or all; returns how many were removed. */
  clear(before?: number): Promise<number>;
  close(): Promise<void>;
}
