// What only the Redis store has: claims between runners, and the error for a Redis that cannot be reached (the
// cache and the limiter are checked by the contract every store passes: test/clean/state/account-state.contract.test.ts).

import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedStateError } from '../../../../src/clean/state/account-state.js';
import { Claims } from '../../../../src/clean/state/redis/claims.js';
import { connectShared } from '../../../../src/clean/state/redis/connect.js';
import {
  REDIS_SKIP_NOTE,
  type RedisHandle,
  redisInstalled,
  redisRequired,
  startRedis,
} from '../../../helpers/redis.js';

if (!redisInstalled) console.log(`test/clean/state/redis/claims.test.ts: ${REDIS_SKIP_NOTE}`);
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

  it('claims: another runner gets only what is unclaimed, and takes over the claims of a runner that is gone', async () => {
    const first = new Claims(a, redis.url, 'test:acct');
    const second = new Claims(b, redis.url, 'test:acct');
    await first.start();
    await second.start();
    expect(await first.claim(['x@e.com', 'y@e.com'])).toEqual({ mine: ['x@e.com', 'y@e.com'], theirs: [] });
    expect(await second.claim(['x@e.com', 'y@e.com', 'z@e.com'])).toEqual({
      mine: ['z@e.com'],
      theirs: ['x@e.com', 'y@e.com'],
    });
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

  it('a runner alive in another container with this hostname keeps its claims, though its pid is no process here', async () => {
    // Its pid, dead in this pid namespace, says nothing about a process in another: its sign of life decides. Named
    // by its host alone (as a runner off Linux, or an earlier mailclean, names itself), it is not of this space.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const elsewhere = `${hostname()}:${deadPid}:feedbeef`;
    await a.set('test:other:claim:w@e.com', elsewhere);
    await a.set(`test:other:runner:${elsewhere}`, '1', 'PX', 15_000);
    const here = new Claims(b, redis.url, 'test:other');
    await here.start();
    expect(await here.takeOverFromGone(['w@e.com'])).toEqual([]);
    await a.del(`test:other:runner:${elsewhere}`);
    expect(await here.takeOverFromGone(['w@e.com'])).toEqual(['w@e.com']);
    await here.release();
  });

  it('a Redis that cannot be reached is a SharedStateError naming it', async () => {
    await expect(connectShared('redis://127.0.0.1:9')).rejects.toThrow(SharedStateError);
    await expect(connectShared('redis://127.0.0.1:9')).rejects.toThrow(
      /the shared state at redis:\/\/127\.0\.0\.1:9 cannot be reached \(connect ECONNREFUSED 127\.0\.0\.1:9\)/,
    );
  });
});
