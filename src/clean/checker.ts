import { ApiError, AuthError, CliError, NetworkError } from '../errors.js';
import { retryAfterMs } from '../api/http.js';
import type { Json } from '../api/shape.js';
import type { Clock } from './limiter.js';
import { recordVerdict, matchRecords } from './answers.js';
import type { Verdict } from './verdict.js';
import { allowanceNews, type AllowanceNews } from '../api/allowance.js';

export const MAX_BATCH = 50;

export interface CheckerDeps {
  send(emails: string[], signal?: AbortSignal): Promise<Json[]>;
  /** Books a slot of the rate limit; `release` says when the request ended. */
  acquire(signal?: AbortSignal): Promise<Slot>;
  release(slot: Slot): void;
  record(verdicts: Verdict[]): void;
  clock: Clock;
  concurrency: number;
  /** Stop sending once this many addresses have been spent (sent in answered requests). */
  maxSpend?: number;
  /** Attempts per batch for transient failures (5xx, resets, garbled answers). */
  maxAttempts?: number;
  /** Graceful stop: no new requests; those in flight finish and are recorded. */
  stop: AbortSignal;
  /** Hard stop: requests in flight are abandoned. */
  abort: AbortSignal;
  random?: () => number;
  onEvent?(event: CheckEvent): void;
}

export type CheckEvent =
  | { type: 'answered'; addresses: number; spent: number; requests: number }
  | { type: 'waiting'; ms: number; why: 'rate' | 'retry' }
  | { type: 'retry'; message: string };

export interface Slot {
  waitedMs: number;
}

/** `storage`: the limiter's state or the journal cannot be written here, so sending must stop. */
export type StopReason = 'allowance' | 'max-spend' | 'service' | 'auth' | 'interrupted' | 'storage';

export interface CheckOutcome {
  stopped?: { reason: StopReason; message: string; error?: CliError };
  spent: number;
  requests: number;
  retries: number;
  /** What the service said of the monthly allowance when it refused, if it said. */
  allowance?: AllowanceNews;
}

interface Batch {
  keys: string[];
  attempts: number;
  /** Keys already sent once and missing from the answer. */
  missingBefore: Set<string>;
}

// A monthly refusal is told apart from the rate limit by what its message speaks of.
const ALLOWANCE_WORDS = /month|quota|allowance|plan|credit|subscription|usage limit/i;

/**
 * Sends the unique addresses in batches of at most 50, through the limiter, and records every verdict.
 * Stops (without losing what is recorded) on allowance exhaustion, --max-spend, persistent service
 * failures, rejected credentials, or an interrupt.
 */
export async function checkAddresses(keys: string[], deps: CheckerDeps): Promise<CheckOutcome> {
  const queue: Batch[] = [];
  for (let i = 0; i < keys.length; i += MAX_BATCH) queue.push({ keys: keys.slice(i, i + MAX_BATCH), attempts: 0, missingBefore: new Set() });
  const outcome: CheckOutcome = { spent: 0, requests: 0, retries: 0 };
  let inFlightAddresses = 0;
  const maxAttempts = deps.maxAttempts ?? 8;
  const random = deps.random ?? Math.random;

  const stop = (reason: StopReason, message: string, error?: CliError) => {
    outcome.stopped ??= { reason, message, error };
  };

  // Learned from a refusal that said how much is left: later batches are cut to fit, so the last addresses
  // of the month are spent rather than refused whole.
  let allowanceLeft: number | undefined;

  const takeBatch = (): Batch | undefined => {
    const batch = queue.shift();
    if (!batch) return batch;
    const spendBudget = deps.maxSpend === undefined ? Infinity : deps.maxSpend - outcome.spent - inFlightAddresses;
    const allowanceBudget = allowanceLeft === undefined ? Infinity : allowanceLeft - inFlightAddresses;
    const budget = Math.min(spendBudget, allowanceBudget);
    if (budget <= 0) {
      queue.unshift(batch);
      if (spendBudget <= 0) stop('max-spend', `stopped at --max-spend ${deps.maxSpend}`);
      else stop('allowance', 'the monthly allowance is used up');
      return undefined;
    }
    if (batch.keys.length > budget) {
      queue.unshift({ ...batch, keys: batch.keys.slice(budget) });
      return { ...batch, keys: batch.keys.slice(0, budget) };
    }
    return batch;
  };

  // Workers with nothing to take wait for those in flight: a failed or partial answer puts work back.
  let busy = 0;
  let wake: Array<() => void> = [];
  const settle = () => {
    const waiting = wake;
    wake = [];
    waiting.forEach((resolve) => resolve());
  };

  const worker = async () => {
    while (!outcome.stopped && !deps.stop.aborted) {
      if (queue.length === 0) {
        if (busy === 0) return;
        await new Promise<void>((resolve) => wake.push(resolve));
        continue;
      }
      const batch = takeBatch();
      if (!batch) return;
      busy++;
      inFlightAddresses += batch.keys.length;
      try {
        await sendBatch(batch);
      } finally {
        inFlightAddresses -= batch.keys.length;
        busy--;
        settle();
      }
    }
  };

  const sendBatch = async (batch: Batch) => {
    let slot: Slot;
    try {
      slot = await deps.acquire(deps.stop);
      if (slot.waitedMs > 0) deps.onEvent?.({ type: 'waiting', ms: slot.waitedMs, why: 'rate' });
    } catch (error) {
      queue.unshift(batch);
      // Stopped while waiting for a slot; any other failure means the limit can no longer be kept.
      if (!deps.stop.aborted) stop('storage', error instanceof Error ? error.message : String(error), error instanceof CliError ? error : undefined);
      return;
    }
    outcome.requests++;
    let records: Json[];
    try {
      records = await deps.send(batch.keys, deps.abort);
    } catch (error) {
      deps.release(slot);
      await handleFailure(batch, error);
      return;
    }
    deps.release(slot);
    outcome.spent += batch.keys.length;
    if (allowanceLeft !== undefined) allowanceLeft = Math.max(0, allowanceLeft - batch.keys.length);
    if (outcome.allowance?.left !== undefined) outcome.allowance.left = Math.max(0, outcome.allowance.left - batch.keys.length);
    const found = matchRecords(batch.keys, records);
    const verdicts: Verdict[] = [];
    const missing: string[] = [];
    const now = new Date(deps.clock.now()).toISOString();
    for (const key of batch.keys) {
      const record = found.get(key);
      if (record) verdicts.push(recordVerdict(key, record, now));
      else if (batch.missingBefore.has(key)) verdicts.push({ key, status: 'unknown', valid: null, disposable: null, validDomain: null, reason: 'no_result', checkedAt: now });
      else missing.push(key);
    }
    if (!recorded(verdicts)) return;
    // An address the answer left out is asked about once more, then called unknown.
    if (missing.length > 0) queue.push({ keys: missing, attempts: 0, missingBefore: new Set(missing) });
    deps.onEvent?.({ type: 'answered', addresses: verdicts.length, spent: outcome.spent, requests: outcome.requests });
  };

  /** Journals answers; a journal that cannot be written stops the run (what is in memory still reaches the outputs). */
  const recorded = (verdicts: Verdict[]): boolean => {
    try {
      deps.record(verdicts);
      return true;
    } catch (error) {
      stop('storage', `cannot save answers in the journal: ${error instanceof Error ? error.message : String(error)}`, error instanceof CliError ? error : undefined);
      return false;
    }
  };

  const handleFailure = async (batch: Batch, error: unknown) => {
    if (deps.abort.aborted) {
      queue.unshift(batch);
      stop('interrupted', 'interrupted');
      return;
    }
    if (error instanceof AuthError) {
      queue.unshift(batch);
      stop('auth', error.message, error);
      return;
    }
    if (error instanceof ApiError && isAllowanceRefusal(error)) {
      queue.unshift(batch);
      const news = allowanceNews(error.message, error.body, error.headers);
      outcome.allowance = news;
      // Some left, but fewer than this batch: send what fits. A batch that already fits and is refused
      // stops the run, so a service that keeps refusing cannot loop us.
      if (news.left !== undefined && news.left > 0 && news.left < batch.keys.length) {
        allowanceLeft = news.left;
        return;
      }
      stop('allowance', 'the monthly allowance is used up', error);
      return;
    }
    if (error instanceof ApiError && error.status === 429) {
      const wait = retryAfterMs(error.headers) ?? 5_000;
      queue.unshift(batch);
      deps.onEvent?.({ type: 'waiting', ms: wait, why: 'rate' });
      await sleepUnlessStopped(wait);
      return;
    }
    if (error instanceof ApiError && error.status === 422) {
      handleRejection(batch, error);
      return;
    }
    if (isTransient(error)) {
      batch.attempts++;
      outcome.retries++;
      const message = error instanceof Error ? error.message : String(error);
      if (batch.attempts >= maxAttempts) {
        queue.unshift(batch);
        stop('service', `the cleaning service kept failing (${batch.attempts} attempts): ${message}`, error instanceof CliError ? error : undefined);
        return;
      }
      deps.onEvent?.({ type: 'retry', message });
      const ceiling = Math.min(500 * 2 ** (batch.attempts - 1), 15_000);
      const wait = ceiling / 2 + random() * (ceiling / 2);
      deps.onEvent?.({ type: 'waiting', ms: wait, why: 'retry' });
      queue.unshift(batch);
      await sleepUnlessStopped(wait);
      return;
    }
    queue.unshift(batch);
    const cliError = error instanceof CliError ? error : undefined;
    stop('service', error instanceof Error ? error.message : String(error), cliError);
  };

  /** 422: addresses it names (`email.3`) are rejected; the rest go again. Naming none, halve the batch. */
  const handleRejection = (batch: Batch, error: ApiError) => {
    const named = new Set<number>();
    for (const field of Object.keys(error.fieldErrors ?? {})) {
      const m = /^emails?[.[](\d+)\]?$/.exec(field);
      if (m) named.add(Number(m[1]));
    }
    const now = new Date(deps.clock.now()).toISOString();
    const rejected = (key: string): Verdict => ({ key, status: 'invalid', valid: false, disposable: null, validDomain: null, reason: 'rejected_by_service', checkedAt: now });
    const validIndexes = [...named].filter((i) => i < batch.keys.length);
    if (validIndexes.length > 0) {
      if (!recorded(validIndexes.map((i) => rejected(batch.keys[i]!)))) return;
      const rest = batch.keys.filter((_, i) => !named.has(i));
      if (rest.length > 0) queue.unshift({ ...batch, keys: rest });
      return;
    }
    if (batch.keys.length === 1) {
      recorded([rejected(batch.keys[0]!)]);
      return;
    }
    const half = Math.ceil(batch.keys.length / 2);
    queue.unshift({ ...batch, keys: batch.keys.slice(0, half) }, { ...batch, keys: batch.keys.slice(half) });
  };

  const sleepUnlessStopped = async (ms: number) => {
    try {
      await deps.clock.sleep(ms, deps.stop);
    } catch {
      /* stopping */
    }
  };

  const onStop = () => settle();
  deps.stop.addEventListener('abort', onStop);
  const workers = Array.from({ length: Math.max(1, deps.concurrency) }, () => worker());
  await Promise.all(workers);
  deps.stop.removeEventListener('abort', onStop);
  if (!outcome.stopped && deps.stop.aborted && queue.length > 0) stop('interrupted', 'interrupted');
  return outcome;
}

/** 402; or a 403, or a 429 without rate-limit headers, whose message speaks of a monthly limit. */
function isAllowanceRefusal(error: ApiError): boolean {
  if (error.status === 402) return true;
  if (error.status === 429 && (error.headers['retry-after'] !== undefined || error.headers['ratelimit-reset'] !== undefined || error.headers['ratelimit-remaining'] !== undefined)) {
    return false;
  }
  if (error.status !== 403 && error.status !== 429) return false;
  return ALLOWANCE_WORDS.test(error.message);
}

function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) return error.status >= 500 || (error.status >= 200 && error.status < 300) || error.status === 408;
  return false;
}
