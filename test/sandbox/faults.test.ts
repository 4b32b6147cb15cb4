import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { FaultInjector, mulberry32 } from '../../src/sandbox/faults.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { addresses, CLEAN, cleanCall, type RawReply, rawPost, signupClean } from './clean-helpers.js';
import { call } from './helpers.js';

const { start, stop, dataDir: freshDataDir } = useSandboxes('mailclean-faults-');

type Seen = 'ok' | '500' | '502' | '503' | 'reset' | 'truncated' | 'other';

function classify(reply: RawReply): Seen {
  if (reply.kind === 'error') return reply.code === 'ECONNRESET' ? 'reset' : 'other';
  if (!reply.complete) return 'truncated';
  if (reply.status === 200) return 'ok';
  if (reply.status === 500 || reply.status === 502 || reply.status === 503) return String(reply.status) as Seen;
  return 'other';
}

async function sendMany(
  sb: SandboxHandle,
  token: string,
  n: number,
  email: string[] = ['a@example.com'],
): Promise<RawReply[]> {
  const replies: RawReply[] = [];
  for (let i = 0; i < n; i++) replies.push(await rawPost(sb.url, CLEAN, token, { email }));
  return replies;
}

const LOOSE = { plan: 'unlimited', rate: { requests: 10_000, windowMs: 60_000 } } as const;

describe('seeded faults', () => {
  it('produce 5xx, resets and truncated bodies, counted in stats, the same for the same seed', async () => {
    const faults = { serverErrorRate: 0.2, resetRate: 0.2, truncateRate: 0.2, seed: 20261121 };
    const runs: Seen[][] = [];
    for (let run = 0; run < 2; run++) {
      const sb = await start({ ...LOOSE, faults });
      const { token } = await signupClean(sb.url);
      const replies = await sendMany(sb, token, 60);
      const seen = replies.map(classify);
      runs.push(seen);
      const count = (k: Seen): number => seen.filter((s) => s === k).length;

      expect(count('other')).toBe(0);
      expect(count('ok')).toBeGreaterThan(0);
      expect(count('500') + count('502') + count('503')).toBeGreaterThan(0);
      expect(count('reset')).toBeGreaterThan(0);
      expect(count('truncated')).toBeGreaterThan(0);

      for (const reply of replies) {
        if (reply.kind !== 'response' || reply.complete) continue;
        // A cut answer: the headers promise more than arrives, and what arrives is not JSON.
        expect(Number(reply.headers['content-length'])).toBeGreaterThan(Buffer.byteLength(reply.text));
        expect(reply.text.length).toBeGreaterThan(0);
        expect(() => JSON.parse(reply.text)).toThrow();
      }

      const stats = sb.stats();
      expect(stats.cleanRequests).toBe(60);
      expect(stats.faults).toEqual({
        serverError: count('500') + count('502') + count('503'),
        reset: count('reset'),
        truncated: count('truncated'),
        // One address per request here: each cut answer had charged one.
        truncatedCharged: count('truncated'),
        rejected: 0,
        rejectedUnnamed: 0,
        dropped: 0,
      });
      // Processed requests are charged, whether their answer arrived whole or cut.
      expect(stats.cleaned).toBe(count('ok') + count('truncated'));
      expect(stats.addressesCharged).toBe(count('ok') + count('truncated'));
      await stop(sb);
    }
    expect(runs[1]).toEqual(runs[0]);
  });

  it('5xx: 500 and 503 in the cleaning envelope (503 without Retry-After), 502 as an HTML page; nothing charged', async () => {
    const sb = await start({ plan: 'free', dataDir: freshDataDir(), faults: { serverErrorRate: 1, seed: 5 } });
    const { token } = await signupClean(sb.url);
    const replies = await sendMany(sb, token, 30, addresses(50));
    const byStatus = new Map<number, RawReply & { kind: 'response' }>();
    for (const r of replies) {
      expect(r.kind).toBe('response');
      if (r.kind !== 'response') continue;
      expect(r.complete).toBe(true);
      expect([500, 502, 503]).toContain(r.status);
      byStatus.set(r.status, r);
      // Still an answer of this route: the rate headers come along.
      expect(r.headers['ratelimit-limit']).toBe('50');
    }
    expect([...byStatus.keys()].sort()).toEqual([500, 502, 503]);

    const e500 = byStatus.get(500)!;
    expect(JSON.parse(e500.text)).toEqual({ message: 'Internal server error.', status: false, statusCode: 500 });
    const e503 = byStatus.get(503)!;
    expect(JSON.parse(e503.text)).toEqual({
      message: 'Service temporarily unavailable.',
      status: false,
      statusCode: 503,
    });
    expect(e503.headers['retry-after']).toBeUndefined();
    const e502 = byStatus.get(502)!;
    expect(e502.headers['content-type']).toMatch(/^text\/html/);
    expect(e502.text).toMatch(/^<html>/);
    expect(() => JSON.parse(e502.text)).toThrow();

    expect(sb.stats()).toMatchObject({
      cleanRequests: 30,
      addressesCharged: 0,
      faults: { serverError: 30, reset: 0, truncated: 0 },
    });
    await stop(sb);
    // The persisted allowance agrees: the whole free month is still there.
    const clean = await start({ plan: 'free', dataDir: freshDataDir() });
    expect((await cleanCall(clean.url, token, addresses(50))).status).toBe(200);
  });

  it('a reset is a socket error for the client and charges nothing', async () => {
    const sb = await start({ plan: 'free', dataDir: freshDataDir(), faults: { resetRate: 1 } });
    const { token } = await signupClean(sb.url);
    const reply = await rawPost(sb.url, CLEAN, token, { email: addresses(50) });
    expect(reply).toEqual({ kind: 'error', code: 'ECONNRESET' });
    // fetch sees it as a failure too
    await expect(cleanCall(sb.url, token, addresses(50))).rejects.toThrow();
    expect(sb.stats()).toMatchObject({
      cleanRequests: 2,
      addressesCharged: 0,
      faults: { serverError: 0, reset: 2, truncated: 0 },
    });
    await stop(sb);
    const clean = await start({ plan: 'free', dataDir: freshDataDir() });
    expect((await cleanCall(clean.url, token, addresses(50))).status).toBe(200);
  });

  it('a truncated answer comes after the work: it is charged', async () => {
    const sb = await start({ plan: 'free', dataDir: freshDataDir(), faults: { truncateRate: 1 } });
    const { token } = await signupClean(sb.url);
    const reply = await rawPost(sb.url, CLEAN, token, { email: addresses(50) });
    expect(reply.kind).toBe('response');
    if (reply.kind !== 'response') return;
    expect(reply.status).toBe(200);
    expect(reply.complete).toBe(false);
    const declared = Number(reply.headers['content-length']);
    expect(Buffer.byteLength(reply.text)).toBe(Math.floor(declared / 2));
    expect(() => JSON.parse(reply.text)).toThrow();
    expect(sb.stats()).toMatchObject({ addressesCharged: 50, faults: { truncated: 1 } });
    await stop(sb);
    const clean = await start({ plan: 'free', dataDir: freshDataDir() });
    const refused = await cleanCall(clean.url, token, ['a@example.com']);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toMatch(/0 left this month; it renews on \d{4}-\d{2}-01\.$/);
  });

  it('a rejection is a 422 naming one address of the request, or none; nothing charged', async () => {
    const named = await start({ ...LOOSE, faults: { rejectRate: 1, seed: 11 } });
    const a = await signupClean(named.url);
    const seenIndexes = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const reply = await cleanCall(named.url, a.token, addresses(10));
      expect(reply.status).toBe(422);
      const keys = Object.keys(reply.json.errors);
      expect(keys).toHaveLength(1);
      const index = Number(/^email\.(\d)$/.exec(keys[0]!)?.[1]);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(reply.json.message).toBe(`The selected email.${index} is invalid.`);
      expect(reply.headers.get('ratelimit-limit')).toBe('10000');
      seenIndexes.add(index);
    }
    // The named address is drawn, not always the first.
    expect(seenIndexes.size).toBeGreaterThan(1);
    // A request that is itself invalid gets its real 422, not a made-up one.
    const invalid = await cleanCall(named.url, a.token, ['not-an-address']);
    expect(invalid.json.errors).toEqual({ 'email.0': ['The email.0 must be a valid email address.'] });
    expect(named.stats()).toMatchObject({
      cleanRequests: 21,
      validationFailed: 1,
      cleaned: 0,
      addressesCharged: 0,
      faults: { rejected: 20, rejectedUnnamed: 0 },
    });

    const unnamed = await start({ ...LOOSE, faults: { rejectUnnamedRate: 1 } });
    const b = await signupClean(unnamed.url);
    const reply = await cleanCall(unnamed.url, b.token, addresses(10));
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({
      message: 'The email field is invalid.',
      status: false,
      statusCode: 422,
      errors: { email: ['The email field is invalid.'] },
    });
    expect(unnamed.stats()).toMatchObject({ addressesCharged: 0, faults: { rejected: 0, rejectedUnnamed: 1 } });
  });

  it('a drop leaves one record out of a 200 that charged every address', async () => {
    const sb = await start({ ...LOOSE, faults: { dropRate: 1, seed: 4 } });
    const { token } = await signupClean(sb.url);
    const sent = addresses(10);
    const missing = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const reply = await cleanCall(sb.url, token, sent);
      expect(reply.status).toBe(200);
      const got = (reply.json.result as Array<{ email: string }>).map((r) => r.email);
      expect(got).toHaveLength(9);
      const left = sent.filter((e) => !got.includes(e));
      expect(left).toHaveLength(1);
      // The rest keep their order.
      expect(got).toEqual(sent.filter((e) => e !== left[0]));
      missing.add(left[0]!);
    }
    expect(missing.size).toBeGreaterThan(1);
    expect(sb.stats()).toMatchObject({ cleaned: 10, addressesCharged: 100, faults: { dropped: 10 } });
  });

  it('latency holds every answer back, fixed or within a range', async () => {
    const fixed = await start({ ...LOOSE, faults: { latencyMs: 300 } });
    const a = await signupClean(fixed.url);
    let t = performance.now();
    expect((await cleanCall(fixed.url, a.token, ['a@example.com'])).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    t = performance.now();
    expect((await call401(fixed.url)).status).toBe(401);
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);

    const ranged = await start({ ...LOOSE, faults: { latencyMs: [60, 90], seed: 3 } });
    const b = await signupClean(ranged.url);
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      expect((await cleanCall(ranged.url, b.token, ['a@example.com'])).status).toBe(200);
      const took = performance.now() - t;
      expect(took).toBeGreaterThanOrEqual(55);
      expect(took).toBeLessThan(90 + 250);
    }
    // Other routes are not slowed.
    t = performance.now();
    expect((await call(fixed.url, 'POST', '/api/v1/auth/signin', { body: {} })).status).toBe(422);
    expect(performance.now() - t).toBeLessThan(200);
  });
});

function call401(base: string): Promise<Response> {
  return fetch(base + CLEAN, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"email":["a@example.com"]}',
  });
}

describe('fault generator', () => {
  it('mulberry32 is deterministic and uniform enough', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });

  it('splits rolls by the configured rates', () => {
    const f = new FaultInjector({
      serverErrorRate: 0.1,
      resetRate: 0.2,
      truncateRate: 0.3,
      rejectRate: 0.1,
      rejectUnnamedRate: 0.05,
      dropRate: 0.15,
      seed: 9,
    });
    const counts = { none: 0, 'server-error': 0, reset: 0, truncate: 0, reject: 0, 'reject-unnamed': 0, drop: 0 };
    for (let i = 0; i < 20_000; i++) counts[f.roll().kind] += 1;
    expect(counts['server-error'] / 20_000).toBeCloseTo(0.1, 1);
    expect(counts.reset / 20_000).toBeCloseTo(0.2, 1);
    expect(counts.truncate / 20_000).toBeCloseTo(0.3, 1);
    expect(counts.reject / 20_000).toBeCloseTo(0.1, 1);
    expect(counts['reject-unnamed'] / 20_000).toBeCloseTo(0.05, 1);
    expect(counts.drop / 20_000).toBeCloseTo(0.15, 1);
    expect(counts.none / 20_000).toBeCloseTo(0.1, 1);
    expect(new FaultInjector().roll()).toEqual({ kind: 'none' });
    expect(() => new FaultInjector({ truncateRate: 0.5, dropRate: 0.6 })).toThrow('at most 1');
    expect(() => new FaultInjector({ rejectRate: 2 })).toThrow('faults.rejectRate');
  });
});
