// What the batch sender needs of the world (the service, the limiter, the journal, a clock, the stop signals) and
// what it tells while it works.
import type { Json } from '../../../api/shape.js';
import type { Clock } from '../../../clock.js';
import type { Verdict } from '../../verdict/verdict.js';
import type { MoreKeys } from './key-source.js';
import type { KnownCount } from './spend-budget.js';

export interface BatchSenderDeps {
  send(emails: string[], signal?: AbortSignal): Promise<Json[]>;
  /** Books a slot of the rate limit; `release` says when the request ended (`unused`: it never reached a server). */
  acquire(signal?: AbortSignal): Promise<Slot>;
  release(slot: Slot, unused: boolean): void | Promise<void>;
  record(verdicts: Verdict[]): void | Promise<void>;
  clock: Clock;
  concurrency: number;
  /** Stop sending once this many addresses have been spent (sent in answered requests). */
  maxSpend?: number;
  /** What is known to be left of the monthly allowance: never more is sent (used up: one address asks first). */
  allowance?: KnownCount;
  /** Attempts per batch for transient failures (5xx, resets, garbled answers). */
  maxAttempts?: number;
  /** Graceful stop: no new requests; those in flight finish and are recorded. */
  stop: AbortSignal;
  /** Hard stop: requests in flight are abandoned. */
  abort: AbortSignal;
  random?: () => number;
  onEvent?(event: CheckEvent): void;
  /** Once the keys run dry: the next ones (claimed as the run goes), fetched while the requests in flight go on. */
  more?: MoreKeys;
}

export type CheckEvent =
  /**
   * For the ETA, `tookMs`: the request's start to its answer (none for answers another runner paid for);
   * `sending`: addresses sent whose answers are not kept yet.
   */
  | { type: 'answered'; addresses: number; spent: number; requests: number; tookMs?: number; sending?: number }
  /** Addresses sent whose answers are not kept yet, at every change: a request's start, its answers kept, a failure. */
  | { type: 'in-flight'; addresses: number }
  | { type: 'waiting'; ms: number; why: 'rate' | 'retry' }
  | { type: 'retry'; message: string };

export interface Slot {
  waitedMs: number;
}

/** Addresses sent in one request, and how it went so far. */
export interface Batch {
  keys: string[];
  attempts: number;
  /** Keys already sent once and missing from the answer. */
  missingBefore: Set<string>;
}
