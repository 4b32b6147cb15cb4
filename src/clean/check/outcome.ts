// How a run of sends to the service ended: what was spent, and why it stopped early if it did.

import type { AllowanceNews } from '../../api/allowance.js';
import type { CliError } from '../../errors.js';

/**
 * `no-service`: before any answer, the URL led to no cleaning service (nothing took the connection, or what
 * answered does not speak the API): nothing was spent, and the run fails rather than ends partial.
 * `rate-limited`: the service kept refusing for its rate limit, or asked for a wait too long to sit through.
 * `storage`: the limiter's state or the journal cannot be written here, so sending must stop. `shared`: the
 * state shared with other runners (Redis) went away, so sending must stop until it is back.
 */
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
  /** Answers another runner of the account paid for, taken from the cache while this run went on. */
  fromOthers?: number;
  /** Answers now kept in the list's journal (an interrupted run says how many it saved). */
  saved?: number;
  /** What the service said of the monthly allowance when it refused, if it said. */
  allowance?: AllowanceNews;
}

/** Why sending stopped at --max-spend, naming the whole run's budget. */
export function maxSpendReached(maxSpend: number): NonNullable<CheckOutcome['stopped']> {
  return { reason: 'max-spend', message: `stopped at --max-spend ${maxSpend}` };
}
