import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FakeClock } from '../helpers/clock.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { addresses, CLEAN, cleanCall, signupClean } from './clean-helpers.js';
import { call, PASSWORD, registerUser } from './helpers.js';

const { start, stop, dataDir: freshDataDir } = useSandboxes('mailclean-clean-');

async function stateFile(dataDir: string): Promise<{ text: string; json: any }> {
  const text = await readFile(join(dataDir, 'sandbox.json'), 'utf8');
  return { text, json: JSON.parse(text) };
}

describe('authentication', () => {
  it('accepts only cleaning tokens: no token, platform tokens and the cdp-token get 401', async () => {
    const sb = await start();
    const { token } = await signupClean(sb.url);
    const { email, token: platformToken } = await registerUser(sb.url);
    const login = await call(sb.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    const cdp = login.json.response['cdp-token'] as string;

    for (const bad of [undefined, platformToken, login.json.response.token as string, cdp, 'not-a-token']) {
      const res = await call(sb.url, 'POST', CLEAN, { token: bad, body: { email: ['a@example.com'] } });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ message: 'Unauthenticated.', status: false, statusCode: 401 });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(200);
    // Refused tokens are no arrivals: only the one good request was admitted.
    expect(sb.stats().cleanRequests).toBe(1);
  });
});

describe('body validation', () => {
  it('keys each bad element as email.<index>, 0-based', async () => {
    const sb = await start();
    const { token } = await signupClean(sb.url);
    const res = await cleanCall(sb.url, token, [
      'ok@example.com',
      'nope',
      'b@example.com',
      'x@@y.com',
      42,
      ' pad@example.com ',
    ]);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      message: 'The email.1 must be a valid email address. (and 2 more errors)',
      status: false,
      statusCode: 422,
      errors: {
        'email.1': ['The email.1 must be a valid email address.'],
        'email.3': ['The email.3 must be a valid email address.'],
        'email.4': ['The email.4 must be a string.'],
      },
    });
    // Every answer of the route after admission carries the rate headers.
    expect(res.headers.get('ratelimit-limit')).toBe('50');
    expect(res.headers.get('ratelimit-remaining')).toBe('49');
  });

  it('keys array-level problems as email: missing, not an array, empty, more than 50', async () => {
    const sb = await start();
    const { token } = await signupClean(sb.url);
    const cases: [unknown, string][] = [
      [undefined, 'The email field is required.'],
      [null, 'The email field is required.'],
      ['a@example.com', 'The email field must be an array.'],
      [[], 'The email field must have at least 1 item.'],
      [addresses(51), 'The email field must not have more than 50 items.'],
    ];
    for (const [email, message] of cases) {
      const res = await call(sb.url, 'POST', CLEAN, { token, body: email === undefined ? {} : { email } });
      expect(res.status, JSON.stringify(email)).toBe(422);
      expect(res.json).toEqual({ message, status: false, statusCode: 422, errors: { email: [message] } });
    }
    // 50 is still fine.
    expect((await cleanCall(sb.url, token, addresses(50))).status).toBe(200);
  });

  it('charges nothing for a 422', async () => {
    const sb = await start({ plan: 'free' });
    const { token } = await signupClean(sb.url);
    expect((await cleanCall(sb.url, token, [...addresses(49), 'bad'])).status).toBe(422);
    expect((await cleanCall(sb.url, token, addresses(51))).status).toBe(422);
    expect(sb.stats()).toMatchObject({ validationFailed: 2, addressesCharged: 0, largestRequest: 51 });
    // The whole free allowance is still there.
    expect((await cleanCall(sb.url, token, addresses(50))).status).toBe(200);
  });
});

describe('rate limit', () => {
  const rate = { requests: 5, windowMs: 2000 };

  it('answers the 6th request in the window with 429, Retry-After and RateLimit headers', async () => {
    const clock = new FakeClock(Date.parse('2026-05-01T00:00:00.000Z'));
    const sb = await start({ now: clock.now, rate, plan: 'unlimited' });
    const { token } = await signupClean(sb.url);

    for (let i = 0; i < 5; i++) {
      const ok = await cleanCall(sb.url, token, ['a@example.com']);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe('5');
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(4 - i));
      expect(ok.headers.get('ratelimit-reset')).toBe('2');
      expect(ok.headers.get('ratelimit-policy')).toBe('5;w=2');
      expect(ok.headers.get('retry-after')).toBeNull();
      clock.advance(100);
    }
    // Arrivals at +0, +100, ... +400; now +500. The oldest leaves at +2000: 1.5 s, rounded up.
    const limited = await cleanCall(sb.url, token, ['a@example.com']);
    expect(limited.status).toBe(429);
    expect(limited.json).toEqual({ message: 'Too many requests: 5 per 2 seconds.', status: false, statusCode: 429 });
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('ratelimit-limit')).toBe('5');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('2');
    expect(limited.headers.get('ratelimit-policy')).toBe('5;w=2');

    clock.advance(1400); // +1900
    const stillLimited = await cleanCall(sb.url, token, ['a@example.com']);
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('retry-after')).toBe('1');

    clock.advance(100); // +2000: the first arrival has left, and the 429s never counted
    const again = await cleanCall(sb.url, token, ['a@example.com']);
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-remaining')).toBe('0');
    // The next slot frees when the arrival at +100 leaves, at +2100.
    expect(again.headers.get('ratelimit-reset')).toBe('1');
    expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(429);

    expect(sb.stats()).toMatchObject({
      cleanRequests: 6,
      rateLimited: 3,
      addressesCharged: 6,
      maxArrivalsInAnyWindow: 5,
    });
  });

  it('admits the full quota again once the window has passed, and limits each user apart', async () => {
    const clock = new FakeClock(Date.parse('2026-05-01T00:00:00.000Z'));
    const sb = await start({ now: clock.now, rate, plan: 'unlimited' });
    const a = await signupClean(sb.url);
    const b = await signupClean(sb.url);
    for (let i = 0; i < 5; i++) expect((await cleanCall(sb.url, a.token, ['a@example.com'])).status).toBe(200);
    expect((await cleanCall(sb.url, a.token, ['a@example.com'])).status).toBe(429);
    // Another user has a window of their own.
    for (let i = 0; i < 5; i++) expect((await cleanCall(sb.url, b.token, ['b@example.com'])).status).toBe(200);
    expect((await cleanCall(sb.url, b.token, ['b@example.com'])).status).toBe(429);

    clock.advance(1999);
    expect((await cleanCall(sb.url, a.token, ['a@example.com'])).status).toBe(429);
    clock.advance(1);
    for (let i = 0; i < 5; i++) expect((await cleanCall(sb.url, a.token, ['a@example.com'])).status).toBe(200);
    expect((await cleanCall(sb.url, a.token, ['a@example.com'])).status).toBe(429);
    expect(sb.stats().maxArrivalsInAnyWindow).toBe(5);
  });

  it('counts refusals for the allowance and 422s as arrivals, but not 401s', async () => {
    const clock = new FakeClock(Date.parse('2026-05-01T00:00:00.000Z'));
    const sb = await start({ now: clock.now, rate, plan: 'free' });
    const { token } = await signupClean(sb.url);
    expect((await cleanCall(sb.url, token, addresses(50))).status).toBe(200);
    expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(403);
    expect((await cleanCall(sb.url, token, ['bad'])).status).toBe(422);
    expect((await call(sb.url, 'POST', CLEAN, { body: { email: ['a@example.com'] } })).status).toBe(401);
    const last = await cleanCall(sb.url, token, ['bad']);
    expect(last.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('shares persisted arrivals between sandboxes on one data directory', async () => {
    const clock = new FakeClock(Date.parse('2026-05-01T00:00:00.000Z'));
    const dataDir = freshDataDir();
    const first = await start({ now: clock.now, rate, dataDir, plan: 'unlimited' });
    const { token, userId } = await signupClean(first.url);
    for (let i = 0; i < 3; i++) expect((await cleanCall(first.url, token, ['a@example.com'])).status).toBe(200);
    await stop(first);

    // A later run, as the next CLI invocation would start it.
    clock.advance(500);
    const second = await start({ now: clock.now, rate, dataDir, plan: 'unlimited' });
    const ok = await cleanCall(second.url, token, ['a@example.com']);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('1');
    // And one running side by side.
    const third = await start({ now: clock.now, rate, dataDir, plan: 'unlimited' });
    expect((await cleanCall(third.url, token, ['a@example.com'])).status).toBe(200);
    expect((await cleanCall(second.url, token, ['a@example.com'])).status).toBe(429);
    expect((await cleanCall(third.url, token, ['a@example.com'])).status).toBe(429);
    expect((await stateFile(dataDir)).json.cleanUsage[userId].arrivals).toHaveLength(5);

    // Pruned to the window when the next arrival is recorded.
    clock.advance(2000);
    expect((await cleanCall(third.url, token, ['a@example.com'])).status).toBe(200);
    expect((await stateFile(dataDir)).json.cleanUsage[userId].arrivals).toEqual([clock.time]);
  });

  it('never admits more than the limit under concurrent requests', async () => {
    const sb = await start({ rate: { requests: 7, windowMs: 60_000 }, plan: 'unlimited', dataDir: freshDataDir() });
    const { token } = await signupClean(sb.url);
    const replies = await Promise.all(Array.from({ length: 20 }, () => cleanCall(sb.url, token, ['a@example.com'])));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(7);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(13);
    expect(sb.stats()).toMatchObject({ cleanRequests: 7, rateLimited: 13, maxArrivalsInAnyWindow: 7 });
  });
});

describe('maxArrivalsInAnyWindow', () => {
  it('is the most arrivals of one user inside any window of the configured length', async () => {
    const clock = new FakeClock(Date.parse('2026-05-01T00:00:00.000Z'));
    const t0 = clock.time;
    const sb = await start({ now: clock.now, rate: { requests: 100, windowMs: 10_000 }, plan: 'unlimited' });
    const a = await signupClean(sb.url);
    const b = await signupClean(sb.url);
    const at = async (offset: number, token: string): Promise<void> => {
      clock.time = t0 + offset;
      expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(200);
    };
    // Two arrivals exactly one window apart are never in one window.
    await at(0, a.token);
    await at(10_000, a.token);
    expect(sb.stats().maxArrivalsInAnyWindow).toBe(1);
    // Three late in one fixed 10 s block and three early in the next: six in the sliding window (14 s, 24 s].
    for (const offset of [16_000, 17_000, 18_000, 21_000, 22_000, 23_000]) await at(offset, a.token);
    expect(sb.stats().maxArrivalsInAnyWindow).toBe(6);
    // Other users' arrivals in the same window are not added in.
    await at(23_500, b.token);
    await at(23_600, b.token);
    await at(40_000, a.token);
    const stats = sb.stats();
    expect(stats.maxArrivalsInAnyWindow).toBe(6);
    expect(stats.cleanRequests).toBe(11);
  });
});

describe('monthly allowance', () => {
  it('free: 50 a month; the request that does not fit is refused whole, charging nothing', async () => {
    // Months are UTC whatever the machine's zone: run this one west of Greenwich, where the local
    // date is still January 31 when February starts in UTC.
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    onTestFinished(() => {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    });
    const clock = new FakeClock(Date.parse('2026-01-31T23:59:00.000Z'));
    const sb = await start({ now: clock.now, plan: 'free' });
    const { token } = await signupClean(sb.url);
    expect((await cleanCall(sb.url, token, addresses(30))).status).toBe(200);

    const refused = await cleanCall(sb.url, token, addresses(21));
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      message:
        'Monthly email cleaning limit reached for the free plan (50 per month); 20 left this month; it renews on 2026-02-01.',
      status: false,
      statusCode: 403,
    });
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.headers.get('ratelimit-limit')).toBe('50');

    expect((await cleanCall(sb.url, token, addresses(20))).status).toBe(200);
    const none = await cleanCall(sb.url, token, ['a@example.com']);
    expect(none.status).toBe(403);
    expect(none.json.message).toBe(
      'Monthly email cleaning limit reached for the free plan (50 per month); 0 left this month; it renews on 2026-02-01.',
    );
    expect(sb.stats()).toMatchObject({ allowanceRefused: 2, addressesCharged: 50, cleaned: 2 });

    clock.advance(59_999); // 23:59:59.999, still January
    expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(403);
    clock.advance(1); // February, UTC
    expect((await cleanCall(sb.url, token, addresses(50))).status).toBe(200);
    expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(403);
  });

  it('a 50-address request uses the free allowance and the next is refused with the configured status', async () => {
    for (const allowanceStatus of [402, 403, 429] as const) {
      const clock = new FakeClock(Date.parse('2026-07-15T12:00:00.000Z'));
      const sb = await start({ now: clock.now, plan: 'free', allowanceStatus });
      const { token } = await signupClean(sb.url);
      expect((await cleanCall(sb.url, token, addresses(50))).status).toBe(200);
      const refused = await cleanCall(sb.url, token, ['a@example.com']);
      expect(refused.status).toBe(allowanceStatus);
      expect(refused.json.statusCode).toBe(allowanceStatus);
      expect(refused.json.message).toMatch(/^Monthly email cleaning limit reached for the free plan/);
      // A monthly refusal never says when to retry, even as a 429; the rate headers show room left.
      expect(refused.headers.get('retry-after')).toBeNull();
      expect(refused.headers.get('ratelimit-remaining')).toBe('48');
      expect(sb.stats()).toMatchObject({ allowanceRefused: 1, rateLimited: 0, addressesCharged: 50 });
      clock.set('2026-08-01T00:00:00.000Z');
      expect((await cleanCall(sb.url, token, ['a@example.com'])).status).toBe(200);
      await stop(sb);
    }
  });

  it('pro: 10,000 a month', async () => {
    const sb = await start({ plan: 'pro', rate: { requests: 1000, windowMs: 60_000 } });
    const { token } = await signupClean(sb.url);
    const batch = addresses(50);
    for (let i = 0; i < 200; i++) expect((await cleanCall(sb.url, token, batch)).status).toBe(200);
    const refused = await cleanCall(sb.url, token, ['a@example.com']);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(
      /^Monthly email cleaning limit reached for the pro plan \(10000 per month\); 0 left this month; it renews on \d{4}-\d{2}-01\.$/,
    );
    expect(sb.stats().addressesCharged).toBe(10_000);
  });

  it('unlimited: no monthly check', async () => {
    const sb = await start({ plan: 'unlimited', rate: { requests: 1000, windowMs: 60_000 } });
    const { token } = await signupClean(sb.url);
    const batch = addresses(50);
    for (let i = 0; i < 201; i++) expect((await cleanCall(sb.url, token, batch)).status).toBe(200);
    expect(sb.stats()).toMatchObject({ addressesCharged: 10_050, allowanceRefused: 0 });
  });

  it('keeps the month counter in the data directory', async () => {
    const clock = new FakeClock(Date.parse('2026-07-15T12:00:00.000Z'));
    const dataDir = freshDataDir();
    const first = await start({ now: clock.now, plan: 'free', dataDir });
    const { token } = await signupClean(first.url);
    expect((await cleanCall(first.url, token, addresses(45))).status).toBe(200);
    await stop(first);
    const second = await start({ now: clock.now, plan: 'free', dataDir });
    const refused = await cleanCall(second.url, token, addresses(6));
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/5 left this month; it renews on 2026-08-01\.$/);
  });
});

describe('options', () => {
  it('refuses nonsense settings at start', async () => {
    await expect(start({ rate: { requests: 0, windowMs: 1000 } })).rejects.toThrow(/rate.requests/);
    await expect(start({ rate: { requests: 1.5, windowMs: 1000 } })).rejects.toThrow(/rate.requests/);
    await expect(start({ rate: { requests: 5, windowMs: 0 } })).rejects.toThrow(/rate.windowMs/);
    await expect(start({ allowanceStatus: 404 as 403 })).rejects.toThrow(/allowanceStatus/);
    await expect(start({ faults: { serverErrorRate: 1.5 } })).rejects.toThrow(/serverErrorRate/);
    await expect(start({ faults: { serverErrorRate: 0.5, resetRate: 0.4, truncateRate: 0.2 } })).rejects.toThrow(
      /at most 1/,
    );
    await expect(start({ faults: { latencyMs: [20, 10] } })).rejects.toThrow(/latencyMs/);
    await expect(start({ faults: { latencyMs: -1 } })).rejects.toThrow(/latencyMs/);
    await expect(start({ faults: { seed: 1.5 } })).rejects.toThrow(/seed/);
  });
});
