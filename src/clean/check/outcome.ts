// How a check ended: what was spent, and why it stopped early if it did.
import type { AllowanceNews } from '../../api/allowance.js';
import type { CliError } from '../../errors.js';

// `no-service`: before any answer, the URL led to no cleaning service, so the run fails rather than ends partial.
// `storage`: the limiter's state or the journal cannot be written; `shared`: the shared state (Redis) went away.
export type StopReason =
  | 'allowance'
  | 'max-spend'
  | 'service'
  | 'no-service'
  | 'rate-limited'
  | 'auth'
  | 'interrupted'
  | 'storage'
  | 'shared';

export interface CheckOutcome {
  stopped?: { reason: StopReason; message: string; error?: CliError };
  spent: number;
  requests: number;
  retries: number;
  /** Answers another runner of the account paid for, taken from the cache. */
  fromOthers?: number;
  saved?: number;
  allowance?: AllowanceNews;
}

/** Nothing spent; interrupted when `stop` was asked for, as a stop while sending ends it. */
export function nothingSpent(stop?: AbortSignal): CheckOutcome {
  const outcome: CheckOutcome = { spent: 0, requests: 0, retries: 0 };
  if (stop?.aborted) outcome.stopped = { reason: 'interrupted', message: 'interrupted' };
  return outcome;
}

export function maxSpendReached(maxSpend: number): NonNullable<CheckOutcome['stopped']> {
  return { reason: 'max-spend', message: `stopped at --max-spend ${maxSpend}` };
}
