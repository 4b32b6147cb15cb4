import pLimit, { type LimitFunction } from 'p-limit';
import { allowanceNews } from '../../../api/allowance.js';
import { type BackoffPolicy, backoffMs } from '../../../api/backoff.js';
import type { Json } from '../../../api/shape.js';
import type { Clock } from '../../../clock.js';
import { ApiError, AuthError, CliError } from '../../../errors.js';
import { SharedStateError } from '../../state/redis/connect.js';
import type { Verdict } from '../../verdict/verdict.js';
import { type CheckOutcome, maxSpendReached, type StopReason } from '../outcome.js';
import { batchVerdicts } from './answers.js';
import { KeySource, type MoreKeys } from './key-source.js';
import { isAllowanceRefusal, isTransient, rateRefusal, splitRejected } from './refusals.js';

export const MAX_BATCH = 50;

export interface BatchSenderDeps {
  send(emails: string[], signal?: AbortSignal): Promise<Json[]>;
  /** Books a slot of the rate limit; `release` says when the request ended. */
  acquire(signal?: AbortSignal): Promise<Slot>;
  release(slot: Slot): void | Promise<void>;
  record(verdicts: Verdict[]): void | Promise<void>;
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
  /** Once the keys run dry: the next ones (claimed as the run goes), fetched while the requests in flight go on. */
  more?: MoreKeys;
}

export type CheckEvent = { type: 'answered'; addresses: number; spent: number; requests: number } | { type: 'waiting'; ms: number; why: 'rate' | 'retry' } | { type: 'retry'; message: string };

export interface Slot {
  waitedMs: number;
}

interface Batch {
  keys: string[];
  attempts: number;
  /** Keys already sent once and missing from the answer. */
  missingBefore: Set<string>;
}

/** A batch that failed goes again after 500 ms, 1 s, 2 s ... up to 15 s. */
const BATCH_BACKOFF: BackoffPolicy = { firstMs: 500, capMs: 15_000 };

/**
 * Sends the unique addresses in batches of at most 50, through the limiter, and records every verdict.
 * Stops (without losing what is recorded) on allowance exhaustion, --max-spend, persistent service
 * failures, rejected credentials, a local state that cannot be written, or an interrupt.
 */
export async function sendBatches(keys: Iterable<string>, deps: BatchSenderDeps): Promise<CheckOutcome> {
  return new BatchSender(deps).run(keys);
}

/**
 * Batches wait for one of `concurrency` places (p-limit); a failed or partial answer puts work back in line. Batches
 * are cut from the keys as places free up, never all at once: a list of millions is not copied into batches.
 */
class BatchSender {
  private readonly outcome: CheckOutcome = { spent: 0, requests: 0, retries: 0 };
  private readonly limit: LimitFunction;
  private readonly running = new Set<Promise<void>>();
  /** Addresses sent and not yet answered. */
  private inFlight = 0;
  /** A batch was left unsent because of a stop request. */
  private skipped = false;
  /** Learned from a refusal that said how much is left: later batches fit it, so the month's last are spent, not refused. */
  private allowanceLeft?: number;
  /** 429s for the rate limit since the last answer. */
  private rateRefusals = 0;
  private source!: KeySource;

  constructor(private readonly deps: BatchSenderDeps) {
    this.limit = pLimit(Math.max(1, deps.concurrency));
  }

  async run(keys: Iterable<string>): Promise<CheckOutcome> {
    const cutWhenFetched = (fetched: Promise<void>) => this.track(fetched.then(() => this.refill()).catch((error: unknown) => this.stopFor(error)));
    this.source = new KeySource(keys, this.deps.more, cutWhenFetched);
    this.refill();
    // Work put back, and new batches cut, while others run are scheduled before those finish: this drains everything.
    while (this.running.size > 0) await Promise.all([...this.running]);
    if (!this.outcome.stopped && this.skipped) this.stop('interrupted', 'interrupted');
    return this.outcome;
  }

  /** Cuts new batches from the keys until one waits for each place (so a freed place never waits on the cutting). */
  private refill(): void {
    while (this.limit.pendingCount < this.limit.concurrency) {
      if (this.outcome.stopped || this.deps.stop.aborted) {
        // Stopped with keys never sent: an interrupt says so; any other stop has said why already.
        if (this.source.close()) this.skipped ||= this.deps.stop.aborted;
        return;
      }
      const keys = this.source.take(MAX_BATCH);
      if (keys === undefined || keys === 'later') return;
      this.schedule({ keys, attempts: 0, missingBefore: new Set() });
    }
  }

  private schedule(batch: Batch): void {
    this.track(
      this.limit(async () => {
        await this.process(batch);
        this.refill();
      }),
    );
  }

  /** Work the run waits for before it ends. */
  private track(task: Promise<void>): void {
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
  }

  private async process(batch: Batch): Promise<void> {
    if (this.outcome.stopped || this.deps.stop.aborted) {
      this.skipped ||= this.deps.stop.aborted;
      return;
    }
    const fitted = this.fit(batch);
    if (!fitted) return;
    // Counted against the budgets from now until its answer (or failure) arrives, before that is handled: a
    // batch put back after a refusal must not count twice.
    this.inFlight += fitted.keys.length;
    let counted = true;
    const landed = () => {
      if (counted) this.inFlight -= fitted.keys.length;
      counted = false;
    };
    try {
      await this.send(fitted, landed);
    } finally {
      landed();
    }
  }

  /** The batch cut to what --max-spend and a known allowance still allow (the rest is put back), or nothing. */
  private fit(batch: Batch): Batch | undefined {
    const { maxSpend } = this.deps;
    const spendBudget = maxSpend === undefined ? Infinity : maxSpend - this.outcome.spent - this.inFlight;
    const allowanceBudget = this.allowanceLeft === undefined ? Infinity : this.allowanceLeft - this.inFlight;
    const budget = Math.min(spendBudget, allowanceBudget);
    if (budget <= 0) {
      if (spendBudget <= 0) this.outcome.stopped ??= maxSpendReached(maxSpend!);
      else this.stop('allowance', 'the monthly allowance is used up');
      return undefined;
    }
    if (batch.keys.length <= budget) return batch;
    this.schedule({ ...batch, keys: batch.keys.slice(budget) });
    return { ...batch, keys: batch.keys.slice(0, budget) };
  }

  private async send(batch: Batch, landed: () => void): Promise<void> {
    const { deps } = this;
    let slot: Slot;
    try {
      slot = await deps.acquire(deps.stop);
      if (slot.waitedMs > 0) deps.onEvent?.({ type: 'waiting', ms: slot.waitedMs, why: 'rate' });
    } catch (error) {
      landed();
      // Stopped while waiting for a slot; any other failure means the limit can no longer be kept.
      if (deps.stop.aborted) this.schedule(batch);
      else this.stopFor(error);
      return;
    }
    this.outcome.requests++;
    let records: Json[];
    try {
      records = await deps.send(batch.keys, deps.abort);
    } catch (error) {
      await this.release(slot);
      landed();
      await this.failed(batch, error);
      return;
    }
    await this.release(slot);
    landed();
    // Answered and paid for: kept even when the limiter could not record the end (a full disk).
    await this.answered(batch, records);
  }

  /** A limiter that cannot record a send's end cannot keep the limit: sending stops (storage). */
  private async release(slot: Slot): Promise<void> {
    try {
      await this.deps.release(slot);
    } catch (error) {
      this.stopFor(error);
    }
  }

  /** The shared state or this machine's storage failed: sending stops. */
  private stopFor(error: unknown): void {
    this.stop(error instanceof SharedStateError ? 'shared' : 'storage', messageOf(error), error instanceof CliError ? error : undefined);
  }

  private async answered(batch: Batch, records: Json[]): Promise<void> {
    const { outcome } = this;
    outcome.spent += batch.keys.length;
    if (this.allowanceLeft !== undefined) this.allowanceLeft = Math.max(0, this.allowanceLeft - batch.keys.length);
    if (outcome.allowance?.left !== undefined) outcome.allowance.left = Math.max(0, outcome.allowance.left - batch.keys.length);
    const { verdicts, missing } = batchVerdicts(batch.keys, records, batch.missingBefore, this.now());
    // An answer ends a run of refusals when it arrives, not once it is on disk (other answers come meanwhile).
    this.rateRefusals = 0;
    // An address the answer left out is asked about once more, then called unknown.
    if (missing.length > 0) this.schedule({ keys: missing, attempts: 0, missingBefore: new Set(missing) });
    if (!(await this.recorded(verdicts))) return;
    this.deps.onEvent?.({ type: 'answered', addresses: verdicts.length, spent: outcome.spent, requests: outcome.requests });
  }

  /** Journals answers; a journal that cannot be written stops the run (what is in memory still reaches the outputs). */
  private async recorded(verdicts: Verdict[]): Promise<boolean> {
    try {
      await this.deps.record(verdicts);
      return true;
    } catch (error) {
      this.stop('storage', `cannot save answers in the journal: ${messageOf(error)}`, error instanceof CliError ? error : undefined);
      return false;
    }
  }

  private async failed(batch: Batch, error: unknown): Promise<void> {
    if (this.deps.abort.aborted) return this.stop('interrupted', 'interrupted');
    if (error instanceof AuthError) return this.stop('auth', error.message, error);
    if (error instanceof ApiError && isAllowanceRefusal(error)) return this.refusedForAllowance(batch, error);
    if (error instanceof ApiError && error.status === 429) {
      const next = rateRefusal(error.headers, ++this.rateRefusals, this.deps.clock.now());
      if ('stop' in next) return this.stop('rate-limited', next.stop);
      this.deps.onEvent?.({ type: 'waiting', ms: next.waitMs, why: 'rate' });
      return this.pauseThenPutBack(batch, next.waitMs);
    }
    if (error instanceof ApiError && error.status === 422) return this.rejected(batch, error);
    if (!isTransient(error)) return this.stop('service', messageOf(error), error instanceof CliError ? error : undefined);
    batch.attempts++;
    this.outcome.retries++;
    if (batch.attempts >= (this.deps.maxAttempts ?? 8)) {
      return this.stop('service', `the cleaning service kept failing (${batch.attempts} attempts): ${messageOf(error)}`, error instanceof CliError ? error : undefined);
    }
    this.deps.onEvent?.({ type: 'retry', message: messageOf(error) });
    const wait = backoffMs(batch.attempts, BATCH_BACKOFF, this.deps.random);
    this.deps.onEvent?.({ type: 'waiting', ms: wait, why: 'retry' });
    return this.pauseThenPutBack(batch, wait);
  }

  /**
   * Some allowance left, but less than this batch: send what fits. A batch that already fits and is refused
   * ends the sending, so a service that keeps refusing cannot loop us.
   */
  private refusedForAllowance(batch: Batch, error: ApiError): void {
    const news = allowanceNews(error.message, error.body, error.headers);
    this.outcome.allowance = news;
    if (news.left !== undefined && news.left > 0 && news.left < batch.keys.length) {
      this.allowanceLeft = news.left;
      this.schedule(batch);
      return;
    }
    this.stop('allowance', 'the monthly allowance is used up', error);
  }

  /** 422: the addresses it rejects are invalid (journaled before the rest goes again, in the parts it says). */
  private async rejected(batch: Batch, error: ApiError): Promise<void> {
    const { rejected, retry } = splitRejected(batch.keys, error);
    const checkedAt = this.now();
    const verdicts = rejected.map((key): Verdict => ({ key, status: 'invalid', valid: false, disposable: null, validDomain: null, reason: 'rejected_by_service', checkedAt }));
    if (verdicts.length > 0 && !(await this.recorded(verdicts))) return;
    for (const keys of retry) this.schedule({ ...batch, keys });
  }

  private async pauseThenPutBack(batch: Batch, ms: number): Promise<void> {
    try {
      await this.deps.clock.sleep(ms, this.deps.stop);
    } catch {
      /* stopping: the batch is put back and skipped */
    }
    this.schedule(batch);
  }

  private stop(reason: StopReason, message: string, error?: CliError): void {
    this.outcome.stopped ??= { reason, message, error };
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
