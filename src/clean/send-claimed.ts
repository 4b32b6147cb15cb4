// Sending when runners on several machines share one account: claim the addresses first, send those that are
// ours, and for those another runner claimed, take its answers from the shared cache (or its claims, once it is
// gone). Never paying twice, never sending unbooked.

import type { CheckOutcome } from './check-outcome.js';
import { realClock } from './clock.js';
import { type SendOptions, sendToService } from './send-to-service.js';
import type { AddressClaims } from './state/account-state.js';
import { SharedStateError } from './state/redis/connect.js';
import type { VerdictCache } from './state/verdict-cache.js';

export interface ClaimedSendOptions extends SendOptions {
  claims: AddressClaims;
  cache: VerdictCache;
  /** Answers at or after this time count (the run's --max-age). */
  since: number;
  /** Waiting for another runner's answers on this many addresses. */
  onWaiting?: (addresses: number) => void;
  pollMs?: number;
}

export async function sendClaimed(opts: ClaimedSendOptions): Promise<CheckOutcome> {
  let outcome: CheckOutcome = { spent: 0, requests: 0, retries: 0 };
  try {
    await opts.claims.start();
    // Claims are taken for the whole list at once, so runners split it before any sends: this path lists it in memory.
    const { mine, theirs } = await opts.claims.claim([...opts.pending]);
    // A runner that finished since this run read the cache has given its claims back, its answers in the cache:
    // those are taken from there, not paid again (seen as 500 addresses charged for 450 in test/e2e/shared.test.ts).
    outcome = await sendToService({ ...opts, pending: await takeTheirAnswers(opts, mine) });
    let waiting = theirs;
    while (waiting.length > 0 && !outcome.stopped && !opts.stop.aborted) {
      waiting = await takeTheirAnswers(opts, waiting);
      if (waiting.length === 0) break;
      const free = (await opts.claims.claim(waiting)).mine;
      const orphaned = await opts.claims.takeOverFromGone(waiting.filter((a) => !free.includes(a)));
      const claimed = [...free, ...orphaned];
      if (claimed.length > 0) {
        // Their runner may have finished between the look at the cache above and these claims.
        const ours = await takeTheirAnswers(opts, claimed);
        // --max-spend is for the whole run: this round gets what the rounds before it left.
        const maxSpend = opts.maxSpend === undefined ? undefined : Math.max(0, opts.maxSpend - outcome.spent);
        if (ours.length > 0) outcome = merge(outcome, await sendToService({ ...opts, pending: ours, maxSpend }));
        const taken = new Set(claimed);
        waiting = waiting.filter((a) => !taken.has(a));
        continue;
      }
      opts.onWaiting?.(waiting.length);
      await realClock.sleep(opts.pollMs ?? 1_000, opts.stop).catch(() => undefined);
    }
    if (waiting.length > 0 && opts.stop.aborted && !outcome.stopped) outcome.stopped = { reason: 'interrupted', message: 'interrupted' };
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    outcome.stopped ??= { reason: 'shared', message: error.message };
  } finally {
    await opts.claims.release();
  }
  return outcome;
}

/** The answers other runners left in the shared cache go into this list's journal; returns what is still missing. */
async function takeTheirAnswers(opts: ClaimedSendOptions, waiting: string[]): Promise<string[]> {
  const answered = await opts.cache.lookup(waiting, opts.since);
  if (answered.size > 0) await opts.journal.record([...answered].map(([key, verdict]) => ({ ...verdict, key })));
  return waiting.filter((a) => !answered.has(a));
}

function merge(a: CheckOutcome, b: CheckOutcome): CheckOutcome {
  return {
    spent: a.spent + b.spent,
    requests: a.requests + b.requests,
    retries: a.retries + b.retries,
    stopped: b.stopped ?? a.stopped,
    allowance: b.allowance ?? a.allowance,
  };
}
