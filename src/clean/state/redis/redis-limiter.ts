// The limit in Redis, for runners on several machines: booked by a Lua script over a sorted set of the times each send
// holds its slot until. Times come from Redis (TIME), so the runners' clocks need not agree.
import type { Redis } from 'ioredis';
import { type Clock, realClock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import { type Booking, bookWhenFree, LimitTimings, type RateLimiter, timeToSendAfter } from '../rate-limiter.js';
import { askShared } from './connect.js';

// KEYS[1] the set; ARGV: limit, span (ms), in-flight hold (ms), id. Returns {wait, now, score...}.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, span, pending = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
local wait = 0
if n < limit then
  redis.call('ZADD', KEYS[1], now + pending + span, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], pending + 2 * span)
else
  wait = tonumber(redis.call('ZRANGE', KEYS[1], n - limit, n - limit, 'WITHSCORES')[2]) - now
  if wait < 1 then wait = 1 end
end
local out = { wait, now }
for _, s in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do table.insert(out, s) end
return out
`;

// KEYS[1] the set; ARGV: span (ms), id. The send ended now: it holds its slot one window from now.
const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
return 1
`;

export class RedisLimiter implements RateLimiter {
  private readonly timings: LimitTimings;
  private counter = 0;
  /** The slots' hold-until times at the last booking, for ETAs (local time). */
  private holding: number[] = [];

  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    private readonly key: string,
    private readonly rate: Rate,
    private readonly clock: Clock = realClock,
  ) {
    this.timings = new LimitTimings(rate);
  }

  async acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Booking> {
    const id = `${process.pid}-${Date.now().toString(36)}-${this.counter++}-${Math.random().toString(36).slice(2, 8)}`;
    const { clock } = this;
    const { pollMs } = this.timings;
    return { id, waitedMs: await bookWhenFree(() => this.tryBook(id), { clock, pollMs, signal, onWait }) };
  }

  /** Every slot's end is guessed: the holds come back as times, not as sends. */
  private async tryBook(id: string): Promise<{ wait: number; known: boolean }> {
    const { span, pendingMs } = this.timings;
    const booked = () => this.redis.eval(ACQUIRE, 1, this.key, this.rate.requests, span, pendingMs, id);
    const [wait, redisNow, ...scores] = ((await askShared(this.url, booked)) as Array<number | string>).map(Number);
    this.keepHolds(redisNow!, scores);
    return { wait: wait!, known: false };
  }

  async estimate(requests: number): Promise<number> {
    const read = () => this.redis.multi().time().zrange(this.key, '0', '-1', 'WITHSCORES').exec();
    const [[, time], [, scores]] = (await askShared(this.url, read)) as [
      [unknown, [string, string]],
      [unknown, string[]],
    ];
    this.keepHolds(Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000), scores.map(Number));
    return this.timeToSend(requests);
  }

  async release(booking: Booking, unused = false): Promise<void> {
    await askShared(this.url, () =>
      unused
        ? this.redis.zrem(this.key, booking.id)
        : this.redis.eval(RELEASE, 1, this.key, this.timings.span, booking.id),
    );
  }

  /** The holds (members and scores, flat) in local time: Redis's clock and ours may differ. */
  private keepHolds(redisNow: number, membersAndScores: number[]): void {
    const offset = this.clock.now() - redisNow;
    this.holding = membersAndScores.filter((_, i) => i % 2 === 1).map((score) => score + offset);
  }

  timeToSend(requests: number): number {
    return timeToSendAfter(this.holding, requests, { rate: this.rate, span: this.timings.span, now: this.clock.now() });
  }
}
