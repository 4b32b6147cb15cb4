import { describe, expect, it } from 'vitest';
import { admit, monthKey, monthlyAllowance, usageOf, usedThisMonth } from '../../src/sandbox/clean-limits.js';
import { type CleanUsage, emptyState } from '../../src/sandbox/state.js';

const W = 10_000;
const usage = (arrivals: number[]): CleanUsage => ({ arrivals, month: '', used: 0 });

describe('sliding log', () => {
  it('admits below the limit and prunes what left the window', () => {
    const u = usage([0, 5_000, 9_000]);
    const a = admit(u, 10_000, { requests: 3, windowMs: W });
    // 0 left exactly at 10 000.
    expect(a).toEqual({ admitted: true, remaining: 0, resetSeconds: 5, inWindow: 3 });
    expect(u.arrivals).toEqual([5_000, 9_000, 10_000]);
  });

  it('refuses at the limit without recording, with the wait for the arrival that frees a slot', () => {
    const u = usage([1_000, 2_000, 3_000, 4_000]);
    // The limit was lowered to 2 since: three must leave to make room, the third of them at 13 000.
    expect(admit(u, 4_500, { requests: 2, windowMs: W })).toEqual({ admitted: false, retryAfterSeconds: 9 });
    expect(u.arrivals).toEqual([1_000, 2_000, 3_000, 4_000]);
    expect(admit(u, 11_999, { requests: 3, windowMs: W })).toEqual({ admitted: false, retryAfterSeconds: 1 });
  });

  it('counts the busiest window holding an arrival recorded out of order', () => {
    const u = usage([1_000, 5_000]);
    const a = admit(u, 3_000, { requests: 10, windowMs: W });
    expect(a.admitted && a.inWindow).toBe(3);
    expect(u.arrivals).toEqual([1_000, 3_000, 5_000]);
  });
});

describe('month', () => {
  it('keys calendar months in UTC and forgets the previous month', () => {
    expect(monthKey(Date.parse('2026-01-31T23:59:59.999Z'))).toBe('2026-01');
    expect(monthKey(Date.parse('2026-02-01T00:00:00.000Z'))).toBe('2026-02');
    const u: CleanUsage = { arrivals: [], month: '2026-01', used: 40 };
    expect(usedThisMonth(u, Date.parse('2026-01-15T00:00:00Z'))).toBe(40);
    expect(usedThisMonth(u, Date.parse('2026-02-15T00:00:00Z'))).toBe(0);
    expect([monthlyAllowance('free'), monthlyAllowance('pro'), monthlyAllowance('unlimited')]).toEqual([
      50,
      10_000,
      undefined,
    ]);
  });

  it('starts a malformed entry afresh', () => {
    const state = emptyState();
    (state.cleanUsage as Record<string, unknown>)['u1'] = { arrivals: 'x', month: 1 };
    expect(usageOf(state, 'u1')).toEqual({ arrivals: [], month: '', used: 0 });
  });
});
