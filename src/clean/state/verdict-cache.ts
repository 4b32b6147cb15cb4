// The verdict cache: every answer the service gave, per account and service, with its time, so that a later run of any
// list does not pay again for an address answered recently.
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

/** `time` is when the answer was given: answers alike but for their time share one verdict. */
export type FoundAnswer = (key: string, verdict: Verdict, time: number) => void;

/** The verdict as of `time`, for a caller that keeps it (see FoundAnswer). */
export const atTime = (verdict: Verdict, time: number): Verdict => ({
  ...verdict,
  checkedAt: new Date(time).toISOString(),
});

/** When the answer was given: its `checkedAt` (the service's time, or the run's clock where it gave none). */
export function answerTime(verdict: Verdict): number {
  const at = Date.parse(verdict.checkedAt);
  // Only a verdict made outside a run lacks a time; stored as now, it is not asked for again at once.
  return Number.isFinite(at) ? at : Date.now();
}

/** The stats' date of a time (epoch ms), null for none (an empty cache). */
export function statsDate(time: number | null): string | null {
  return time === null || !Number.isFinite(time) ? null : new Date(time).toISOString();
}

/** The addresses asked: a cache may go through them, or through its own answers keeping those asked. */
export type AskedKeys = Iterable<string> & { readonly size: number; has(key: string): boolean };

export interface VerdictCache {
  /** Each answer given at or after `since`, to `found` as it is read; `stop` ends early, what was found standing. */
  lookup(keys: AskedKeys, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number>;
  /** Keeps answers as they arrive (their `checkedAt` is when the service gave them). */
  store(verdicts: readonly Verdict[]): Promise<void>;
  stats(): Promise<CacheStats>;
  /** Forgets answers older than `before` (epoch ms), or all; returns how many were removed. */
  clear(before?: number): Promise<number>;
  close(): Promise<void>;
}
