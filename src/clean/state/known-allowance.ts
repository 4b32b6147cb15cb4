// What was learned of the monthly allowance, kept for the next run; an answer the known count did not allow (a plan
// upgraded, a renewal) shows the count was old, so it is forgotten.
import type { AllowanceNews, KnownAllowance, MachineState } from './account-state.js';

export interface Learned {
  /** Addresses the service answered, so charged. */
  spent: number;
  /** What the service said of the allowance when it refused (counted down by the answers since). */
  news?: AllowanceNews;
  /** Sending stopped because the service refused for the allowance. */
  usedUp: boolean;
}

export function keepLearned(state: MachineState, before: KnownAllowance | undefined, learned: Learned): void {
  const { spent, news, usedUp } = learned;
  if (usedUp) state.rememberAllowance({ ...before, ...news, left: 0 }, 'refusal');
  else if (news?.left !== undefined) state.rememberAllowance(news, 'refusal');
  else if (before?.left === undefined || spent === 0) return;
  else if (spent > before.left) state.rememberAllowance({}, 'run');
  else state.rememberAllowance({ ...before, left: before.left - spent }, 'run');
}
