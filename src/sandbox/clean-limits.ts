import type { Rate } from '../config/rate.js';
import { PLAN_LIMITS } from './plans.js';
import type { CleanUsage, Plan, SandboxState } from './state.js';

export type Admission =
  | {
      admitted: true;
      /** Requests still allowed in the window, this one counted. */
      remaining: number;
      /** Seconds until the oldest arrival in the window leaves it, i.e. until `remaining` grows. */
      resetSeconds: number;
      /** Most arrivals of this user in any one window that holds this arrival. */
      inWindow: number;
    }
  | { admitted: false; retryAfterSeconds: number };

export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The user's counters, created when missing; a malformed entry (a hand edit) starts afresh. */
export function usageOf(draft: SandboxState, userId: string): CleanUsage {
  const found = Object.hasOwn(draft.cleanUsage, userId) ? draft.cleanUsage[userId] : undefined;
  const wellFormed =
    Array.isArray(found?.arrivals) && found.arrivals.every(Number.isFinite) && typeof found.month === 'string';
  if (wellFormed && Number.isFinite(found.used)) return found;
  const fresh: CleanUsage = { arrivals: [], month: '', used: 0 };
  draft.cleanUsage[userId] = fresh;
  return fresh;
}

/**
 * Sliding log: an arrival at `t` is in the window while `now - t < windowMs`. Admits and records the arrival when
 * fewer than `requests` are in it; the log is pruned to the window either way.
 */
export function admit(usage: CleanUsage, now: number, rate: Rate): Admission {
  const live = usage.arrivals.filter((t) => now - t < rate.windowMs).sort((a, b) => a - b);
  usage.arrivals = live;
  if (live.length >= rate.requests) {
    // With more than `requests` in the window (the limit was lowered since), several must leave first.
    const freeing = live[live.length - rate.requests] as number;
    return { admitted: false, retryAfterSeconds: Math.max(1, secondsUntil(freeing + rate.windowMs, now)) };
  }
  live.push(now);
  live.sort((a, b) => a - b);
  const oldest = live[0] as number;
  return {
    admitted: true,
    remaining: rate.requests - live.length,
    resetSeconds: secondsUntil(oldest + rate.windowMs, now),
    inWindow: busiestWindowWith(live, now, rate.windowMs),
  };
}

/**
 * The most arrivals in one window of length `windowMs` among those holding `t`. Windows ending at an arrival are
 * enough; this stays right when arrivals are recorded out of order (another process, a clock moved back).
 */
function busiestWindowWith(sorted: number[], t: number, windowMs: number): number {
  let best = 0;
  for (const end of sorted) {
    if (end < t || end - t >= windowMs) continue;
    const count = sorted.filter((x) => x <= end && end - x < windowMs).length;
    best = Math.max(best, count);
  }
  return best;
}

/** `YYYY-MM` of the UTC calendar month of `ms`. */
export function monthKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** Addresses per calendar month, or undefined when the plan has no monthly check (max 0 in PLAN_LIMITS). */
export function monthlyAllowance(plan: Plan): number | undefined {
  const max = PLAN_LIMITS[plan].email_cleaning;
  return max > 0 ? max : undefined;
}

/** The first day of the month after `ms` (UTC), when the allowance renews. */
export function nextMonthStart(ms: number): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

export function usedThisMonth(usage: CleanUsage, now: number): number {
  return usage.month === monthKey(now) ? usage.used : 0;
}

/** Seconds in a message and in `RateLimit-Policy`: whole when the window is, else up to three decimals. */
export function windowSeconds(windowMs: number): string {
  return String(Math.round(windowMs) / 1000);
}

export function rateHeaders(rate: Rate, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'ratelimit-limit': String(rate.requests),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `${rate.requests};w=${Math.max(1, Math.ceil(rate.windowMs / 1000))}`,
  };
}
