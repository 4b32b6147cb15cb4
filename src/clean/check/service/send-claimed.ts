// Sending when runners share one account: claim the addresses a chunk at a time, send ours, and take the answers of
// those another runner claimed from the shared cache (or its claims, once it is gone).

import { batches } from '../../../batches.js';
import { realClock } from '../../../clock.js';
import type { AddressClaims } from '../../state/account-state.js';
import { SharedStateError } from '../../state/account-state.js';
import { holdsUntil } from '../../state/month.js';
import { atTime, type VerdictCache } from '../../state/verdict-cache.js';
import type { Verdict } from '../../verdict/verdict.js';
import { type CheckOutcome, maxSpendReached, nothingSpent } from '../outcome.js';
import type { MoreKeys } from './key-source.js';
import { type SendOptions, sendToService } from './send-to-service.js';
import type { KnownCount } from './spend-budget.js';

export interface ClaimedSendOptions extends SendOptions {
  claims: AddressClaims;
  cache: VerdictCache;
  since: number;
  onWaiting?: (addresses: number) => void;
  pollMs?: number;
}

// A run that stops early holds back from other runners about this many addresses it never sends; runners given one
// long list share it out as they go.
const CLAIM_CHUNK = 1_000;

export async function sendClaimed(opts: ClaimedSendOptions): Promise<CheckOutcome> {
  const sending = new ClaimedSending(opts);
  try {
    await opts.claims.start();
    let waiting = await sending.claimAndSend(opts.pending);
    while (waiting.length > 0 && sending.goingOn()) {
      waiting = await sending.takeTheirAnswers(waiting);
      if (waiting.length === 0) break;
      const before = waiting.length;
      // Their runner may have stopped before sending them (it gave its claims back), or be gone.
      waiting = await sending.claimAndSend(waiting);
      if (waiting.length < before) continue;
      opts.onWaiting?.(waiting.length);
      await realClock.sleep(opts.pollMs ?? 1_000, opts.stop).catch(() => undefined);
    }
    if (opts.stop.aborted) sending.outcome.stopped ??= { reason: 'interrupted', message: 'interrupted' };
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    sending.outcome.stopped ??= { reason: 'shared', message: error.message };
  } finally {
    await opts.claims.release();
  }
  return { ...sending.outcome, fromOthers: sending.fromOthers };
}

/** One run's rounds of sending, against the whole run's --max-spend. */
class ClaimedSending {
  outcome = nothingSpent();
  fromOthers = 0;
  /** What progress was last told of this run's spend and requests, across rounds. */
  private spentSoFar = 0;
  private requestsSoFar = 0;

  constructor(private readonly opts: ClaimedSendOptions) {}

  goingOn(): boolean {
    return !this.outcome.stopped && !this.opts.stop.aborted;
  }

  /** Returns the addresses live runners hold. */
  async claimAndSend(addresses: Iterable<string>): Promise<string[]> {
    const chunks = batches(addresses, CLAIM_CHUNK)[Symbol.iterator]();
    const theirs: string[] = [];
    const more = async (): Promise<string[] | undefined> => {
      for (let chunk = chunks.next(); !chunk.done; chunk = chunks.next()) {
        const ours = chunk.value.length > 0 ? await this.claim(chunk.value, theirs) : [];
        if (ours.length > 0) return ours;
      }
      return undefined;
    };
    await this.send(more);
    return theirs;
  }

  /** Takes over what runners that are gone held; returns what is this runner's to send. */
  private async claim(chunk: string[], theirs: string[]): Promise<string[]> {
    const claimed = await this.opts.claims.claim(chunk);
    const orphaned = await this.opts.claims.takeOverFromGone(claimed.theirs);
    const taken = new Set(orphaned);
    for (const address of claimed.theirs) if (!taken.has(address)) theirs.push(address);
    // A runner that finished since this run read the cache gave its claims back: its answers are in the cache.
    return this.takeTheirAnswers([...claimed.mine, ...orphaned]);
  }

  /** Journals the answers other runners left in the cache; returns what is still missing. */
  async takeTheirAnswers(waiting: string[]): Promise<string[]> {
    const { opts } = this;
    const answered = new Map<string, Verdict>();
    await opts.cache.lookup(new Set(waiting), opts.since, (key, verdict, time) =>
      answered.set(key, { ...atTime(verdict, time), key }),
    );
    if (answered.size > 0) {
      await opts.journal.record([...answered.values()]);
      this.fromOthers += answered.size;
      // Checked, and paid by another runner: progress counts them without a request or a spend of this run's.
      opts.onEvent?.({
        type: 'answered',
        addresses: answered.size,
        spent: this.spentSoFar,
        requests: this.requestsSoFar,
      });
    }
    return waiting.filter((a) => !answered.has(a));
  }

  /** Progress counts from the rounds before. */
  private async send(more: MoreKeys): Promise<void> {
    const { opts } = this;
    const before = this.outcome;
    const maxSpend = opts.maxSpend === undefined ? undefined : opts.maxSpend - before.spent;
    if (maxSpend !== undefined && maxSpend <= 0) {
      before.stopped = maxSpendReached(opts.maxSpend!);
      return;
    }
    const onEvent: SendOptions['onEvent'] = (event) => {
      if (event.type !== 'answered') return opts.onEvent?.(event);
      this.spentSoFar = before.spent + event.spent;
      this.requestsSoFar = before.requests + event.requests;
      opts.onEvent?.({ ...event, spent: this.spentSoFar, requests: this.requestsSoFar });
    };
    const allowance = countAfter(opts.allowance, before, opts.clock.now());
    const round = await sendToService({ ...opts, pending: [], more, maxSpend, allowance, onEvent });
    this.outcome = {
      spent: before.spent + round.spent,
      requests: before.requests + round.requests,
      retries: before.retries + round.retries,
      stopped: round.stopped?.reason === 'max-spend' ? maxSpendReached(opts.maxSpend!) : round.stopped,
      allowance: round.allowance ?? before.allowance,
    };
  }
}

// What a refusal in the rounds before said of the allowance; else the count the run began with, less what they spent,
// unless they spent more than it allowed (it was old).
function countAfter(start: KnownCount | undefined, before: CheckOutcome, now: number): KnownCount | undefined {
  const told = before.allowance?.left;
  if (told !== undefined)
    return { left: told, until: holdsUntil({ ...before.allowance, asOf: new Date(now).toISOString() }), fresh: true };
  if (!start || before.spent > start.left) return undefined;
  return { ...start, left: start.left - before.spent, fresh: start.fresh || before.spent > 0 };
}
