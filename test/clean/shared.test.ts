// The state runners on several machines share, against a real redis-server on loopback.

import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisVerdictCache } from '../../src/clean/shared/cache.js';
import { Claims } from '../../src/clean/shared/claims.js';
import { connectShared, SharedStateError } from '../../src/clean/shared/connect.js';
import { RedisLimiter } from '../../src/clean/shared/limiter.js';
import type { Verdict } from '../../src/clean/verdict.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../helpers/redis.js';

if (!redisInstalled) console.log(`test/clean/shared.test.ts: ${REDIS_SKIP_NOTE}`);
const run = redisInstalled || redisRequired;

describe.runIf(run)('shared state on Redis', () => {
  let redis: RedisHandle;
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    a = await connectShared(redis.url);
    b = await connectShared(redis.url);
  });
  afterAll(async () => {
    a?.disconnect();
    b?.disconnect();
    await redis?.stop();
  });

  it('two limiters on one key never let more than N sends start in any window', async () => {
    const rate = { requests: 3, windowMs: 400 };
    const one = new RedisLimiter(a, redis.url, 'test:limit', rate);
    const two = new RedisLimiter(b, redis.url, 'test:limit', rate);
    const starts: number[] = [];
    const worker = async (limiter: RedisLimiter) => {
      for (let i = 0; i < 6; i++) {
        const booking = await limiter.acquire();
        starts.push(Date.now());
        await limiter.release(booking);
      }
    };
    await Promise.all([worker(one), worker(two), worker(one), worker(two)]);
    expect(starts).toHaveLength(24);
    starts.sort((x, y) => x - y);
    // Any window of 400 ms holds at most 3 starts.
    for (let i = 0; i + 3 < starts.length; i++) expect(starts[i + 3]! - starts[i]!).toBeGreaterThanOrEqual(rate.windowMs);
  });

  it('the cache keeps verdicts with their time, answers by age, counts, clears', async () => {
    const cache = new RedisVerdictCache(a, redis.url, 'test:cache');
    const old: Verdict = { key: 'old@example.com', status: 'valid', valid: true, disposable: false, validDomain: true, reason: '', checkedAt: '2026-01-01T00:00:00.000Z' };
    const fresh: Verdict = {
      key: 'new@example.com',
      status: 'risky',
      valid: false,
      disposable: true,
      validDomain: null,
      reason: 'disposable',
      checkedAt: new Date().toISOString(),
      serviceStatus: 'disposable',
    };
    await cache.store([old, fresh]);
    const found = await new RedisVerdictCache(b, redis.url, 'test:cache').lookup(['old@example.com', 'new@example.com', 'none@example.com'], 0);
    expect([...found.keys()].sort()).toEqual(['new@example.com', 'old@example.com']);
    expect(found.get('new@example.com')).toEqual({ ...fresh, key: '' });
    expect((await cache.lookup(['old@example.com', 'new@example.com'], Date.now() - 86_400_000)).size).toBe(1);
    expect(await cache.count(new Set(['old@example.com', 'new@example.com']), 0)).toBe(2);
    expect(await cache.stats()).toMatchObject({ entries: 2, oldest: old.checkedAt, newest: fresh.checkedAt });
    expect(await cache.clear(Date.parse('2026-06-01'))).toBe(1);
    expect(await cache.clear()).toBe(1);
  });

  it('claims: another runner gets only what is unclaimed, and takes over the claims of a runner that is gone', async () => {
    const first = new Claims(a, redis.url, 'test:acct');
    const second = new Claims(b, redis.url, 'test:acct');
    await first.start();
    await second.start();
    expect(await first.claim(['x@e.com', 'y@e.com'])).toEqual({ mine: ['x@e.com', 'y@e.com'], theirs: [] });
    expect(await second.claim(['x@e.com', 'y@e.com', 'z@e.com'])).toEqual({ mine: ['z@e.com'], theirs: ['x@e.com', 'y@e.com'] });
    expect(await second.takeOverFromGone(['x@e.com', 'y@e.com'])).toEqual([]);
    // The first runner dies without releasing: its liveness key is gone, its claims remain.
    await a.del(`test:acct:runner:${first.owner}`);
    expect((await second.takeOverFromGone(['x@e.com', 'y@e.com'])).sort()).toEqual(['x@e.com', 'y@e.com']);
    // The first runner's late release gives back nothing that is no longer its own.
    await first.release();
    expect(await a.get('test:acct:claim:x@e.com')).toBe(second.owner);
    await second.release();
    expect(await a.exists('test:acct:claim:x@e.com', 'test:acct:claim:z@e.com')).toBe(0);
  });

  it('a Redis that cannot be reached is a SharedStateError naming it', async () => {
    await expect(connectShared('redis://127.0.0.1:9')).rejects.toThrow(SharedStateError);
    await expect(connectShared('redis://127.0.0.1:9')).rejects.toThrow(/the shared state at redis:\/\/127\.0\.0\.1:9 cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:9\)/);
  });
});
