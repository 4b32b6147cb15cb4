import pLimit, { type LimitFunction } from 'p-limit';
import { allowanceNews } from '../../../api/allowance.js';
import type { Json } from '../../../api/shape.js';
import { ApiError, CliError, messageOf } from '../../../errors.js';
import { SharedStateError } from '../../state/account-state.js';
import { holdsUntil } from '../../state/month.js';
import type { Booking } from '../../state/rate-limiter.js';
import type { Verdict } from '../../verdict/verdict.js';
import { type CheckOutcome, maxSpendReached, nothingSpent, type StopReason } from '../outcome.js';
import { batchVerdicts, rejectedVerdicts } from './answers.js';
import { KeySource } from './key-source.js';
import { afterFailure, leadsNowhere, neverReached, splitRejected } from './refusals.js';
import type { SendOptions } from './send-to-service.js';
import { SpendBudget } from './spend-budget.js';

export const MAX_BATCH = 50;

interface Batch {
  keys: string[];
  attempts: number;
  missingBefore: Set<string>;
}

/** Batches are cut as places (p-limit) free up, so a list of millions is never copied. */
export class BatchSender {
  private readonly outcome = nothingSpent();
  private readonly limit: LimitFunction;
  private readonly running = new Set<Promise<void>>();
  private readonly budget: SpendBudget;
  /** Addresses paid for whose answers are kept: what progress calls spent, in step with what it calls checked. */
  private spentKept = 0;
  /** Addresses sent whose answers are not kept yet (for the ETA). */
  private sending = 0;
  private skipped = false;
  private rateRefusals = 0;
  /** The service has answered (records, or a failure in its own JSON): a refused connection now is passing. */
  private heard = false;
  private source!: KeySource;

  constructor(private readonly deps: SendOptions) {
    this.limit = pLimit(Math.max(1, deps.concurrency));
    this.budget = new SpendBudget(deps.maxSpend, deps.allowance, () => deps.clock.now());
  }

  async sendAll(): Promise<CheckOutcome> {
    const cutWhenFetched = (fetched: Promise<void>) =>
      this.track(fetched.then(() => this.refill()).catch((error: unknown) => this.stopFor(error)));
    this.source = new KeySource(this.deps.pending, this.deps.more, cutWhenFetched);
    this.refill();
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
    this.track(this.limit(() => this.process(batch).then(() => this.refill())));
  }

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
    if (fitted instanceof Promise) return fitted.then(() => this.process(batch));
    if (!fitted) return;
    // Counted from now until its answer arrives, so a batch put back after a refusal does not count twice.
    const landed = this.budget.sending(fitted.keys.length);
    try {
      await this.send(fitted, landed);
    } finally {
      landed();
    }
  }

  /** The batch cut to what the budget allows (the rest put back), nothing, or what to wait for first. */
  private fit(batch: Batch): Batch | Promise<void> | undefined {
    const fitted = this.budget.fit(batch.keys.length);
    if ('wait' in fitted) return fitted.wait;
    if ('stop' in fitted) {
      if (fitted.stop === 'max-spend') this.outcome.stopped ??= maxSpendReached(this.deps.maxSpend!);
      else this.stop('allowance', 'the monthly allowance is used up');
      return undefined;
    }
    if (batch.keys.length <= fitted.send) return batch;
    this.schedule({ ...batch, keys: batch.keys.slice(fitted.send) });
    return { ...batch, keys: batch.keys.slice(0, fitted.send) };
  }

  private async send(batch: Batch, landed: () => void): Promise<void> {
    const { deps } = this;
    let slot: Booking;
    try {
      slot = await deps.limiter.acquire(deps.stop, (ms) => deps.onEvent?.({ type: 'limit-wait', ms }));
    } catch (error) {
      landed();
      // Stopped while waiting for a slot; any other failure means the limit can no longer be kept.
      if (deps.stop.aborted) this.schedule(batch);
      else this.stopFor(error);
      return;
    }
    this.outcome.requests++;
    let records: Json[];
    const sentAt = deps.clock.now();
    this.inFlight(batch.keys.length);
    try {
      records = await deps.client.clean(batch.keys, deps.abort);
    } catch (error) {
      this.inFlight(-batch.keys.length);
      // A request the service never counted took no slot of its limit: given back unused.
      this.release(slot, neverReached(error) || (!this.heard && leadsNowhere(error)));
      landed();
      await this.failed(batch, error);
      return;
    }
    this.release(slot);
    // Answered and paid for: kept even when the limiter could not record the end (a full disk).
    this.budget.paid(batch.keys.length);
    landed();
    await this.answered(batch, records, deps.clock.now() - sentAt);
  }

  /** Told before a request leaves: a run killed then knows what the service may have billed. */
  private inFlight(change: number): void {
    this.sending += change;
    this.deps.onEvent?.({ type: 'in-flight', addresses: this.sending });
  }

  private release(slot: Booking, unused = false): void {
    const { limiter } = this.deps;
    try {
      // Written with the next booking where the store can: the first window's requests go as fast as these turns.
      if (!unused && limiter.releaseLater) limiter.releaseLater(slot);
      // A release that fails (the shared state went away) only holds the slot until its in-flight time runs out.
      else void Promise.resolve(limiter.release(slot, unused)).catch(() => undefined);
    } catch (error) {
      this.stopFor(error);
    }
  }

  private stopFor(error: unknown): void {
    this.stop(error instanceof SharedStateError ? 'shared' : 'storage', messageOf(error), error);
  }

  private async answered(batch: Batch, records: Json[], tookMs: number): Promise<void> {
    const { outcome } = this;
    outcome.spent = this.budget.spent;
    if (outcome.allowance?.left !== undefined)
      outcome.allowance.left = Math.max(0, outcome.allowance.left - batch.keys.length);
    const { verdicts, missing } = batchVerdicts(batch.keys, records, batch.missingBefore, this.now());
    this.rateRefusals = 0;
    this.heard = true;
    // An address the answer left out is asked about once more, then called unknown.
    if (missing.length > 0) this.schedule({ keys: missing, attempts: 0, missingBefore: new Set(missing) });
    const kept = await this.recorded(verdicts);
    this.inFlight(-batch.keys.length);
    if (!kept) return;
    // Counted once kept, as `addresses` are.
    this.spentKept += batch.keys.length;
    this.deps.onEvent?.({
      type: 'answered',
      addresses: verdicts.length,
      spent: this.spentKept,
      requests: outcome.requests,
      tookMs,
      sending: this.sending,
    });
  }

  /** A journal that cannot be written stops the run; what is in memory still reaches the outputs. */
  private async recorded(verdicts: Verdict[]): Promise<boolean> {
    try {
      await this.deps.journal.record(verdicts);
      return true;
    } catch (error) {
      this.stop('storage', `cannot save answers in the journal: ${messageOf(error)}`, error);
      return false;
    }
  }

  private async failed(batch: Batch, error: unknown): Promise<void> {
    const { deps } = this;
    const isRateRefusal = error instanceof ApiError && error.status === 429;
    const rateRefusals = isRateRefusal ? this.rateRefusals + 1 : this.rateRefusals;
    const retried = !isRateRefusal ? batch.attempts + 1 : batch.attempts;
    const next = afterFailure(error, {
      aborted: deps.abort.aborted,
      heard: this.heard,
      rateRefusals,
      attempts: retried,
      maxAttempts: 8,
      now: deps.clock.now(),
    });
    this.heard ||= error instanceof ApiError && error.body !== undefined;
    if ('stop' in next) return this.stop(next.stop, next.message, next.error);
    if ('allowance' in next) return this.refusedForAllowance(batch, next.allowance);
    if ('rejected' in next) return this.rejected(batch, next.rejected);
    if (next.why === 'rate') this.rateRefusals = rateRefusals;
    else {
      batch.attempts = retried;
      this.outcome.retries++;
      deps.onEvent?.({ type: 'retry', message: next.message });
    }
    deps.onEvent?.({ type: 'waiting', ms: next.waitMs, why: next.why });
    return this.pauseThenPutBack(batch, next.waitMs);
  }

  /** Less allowance left than this batch: send what fits; a batch that fits and is refused ends the sending. */
  private refusedForAllowance(batch: Batch, error: ApiError): void {
    const news = allowanceNews(error.message, error.body, error.headers);
    this.outcome.allowance = news;
    if (news.left !== undefined && news.left > 0 && news.left < batch.keys.length) {
      this.budget.allowanceIs(news.left, holdsUntil({ asOf: this.now(), renewsAt: news.renewsAt }));
      this.schedule(batch);
      return;
    }
    this.stop('allowance', 'the monthly allowance is used up', error);
  }

  /** 422: the addresses it rejects are invalid (journaled before the rest goes again, in the parts it says). */
  private async rejected(batch: Batch, error: ApiError): Promise<void> {
    const { rejected, retry } = splitRejected(batch.keys, error);
    const verdicts = rejectedVerdicts(rejected, this.now());
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

  /** The first reason to stop wins; the CLI's own error is kept, for its exit code and hint. */
  private stop(reason: StopReason, message: string, error?: unknown): void {
    this.outcome.stopped ??= { reason, message, error: error instanceof CliError ? error : undefined };
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}
