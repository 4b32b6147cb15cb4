// The verdict cache in Redis, shared by runners on several machines: one hash per account, the address as the
// field, the verdict packed into one short string with the answer's time.
import type { Redis } from 'ioredis';
import { batches } from '../../../batches.js';
import { asciiLower } from '../../../verify/syntax.js';
import { documentedStatus } from '../../verdict/service-words.js';
import type { Verdict } from '../../verdict/verdict.js';
import { answerTime, type CacheStats, type FoundAnswer, statsDate, type VerdictCache } from '../verdict-cache.js';
import { askShared } from './connect.js';

const flag = (b: boolean | null) => (b === null ? '' : b ? '1' : '0');
const unflag = (s: string | undefined): boolean | null => (s === '1' ? true : s === '0' ? false : null);

/** status, valid, disposable, validDomain, reason, time: tab-separated (none of them holds a tab). */
function pack(v: Verdict): string {
  return [
    v.serviceStatus ?? v.status,
    flag(v.valid),
    flag(v.disposable),
    flag(v.validDomain),
    v.reason,
    answerTime(v),
  ].join('\t');
}

function unpack(text: string): { verdict: Verdict; at: number } | undefined {
  const [status, valid, disposable, validDomain, reason, at] = text.split('\t');
  const time = Number(at);
  if (!status || !Number.isFinite(time)) return undefined;
  const v = unflag(valid);
  // The service's own word is kept; the verdict says it in mailclean's.
  return {
    verdict: {
      key: '',
      status: documentedStatus(status, v),
      serviceStatus: status,
      valid: v,
      disposable: unflag(disposable),
      validDomain: unflag(validDomain),
      reason: reason ?? '',
      checkedAt: new Date(time).toISOString(),
    },
    at: time,
  };
}

export class RedisVerdictCache implements VerdictCache {
  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    private readonly key: string,
  ) {}

  private run<T>(command: () => Promise<T>): Promise<T> {
    return askShared(this.url, command);
  }

  /** HMGET a batch at a time; an answer's verdict carries its own time. */
  async lookup(keys: Iterable<string>, since: number, found: FoundAnswer, stop?: AbortSignal): Promise<number> {
    let count = 0;
    for (const batch of batches(keys)) {
      if (stop?.aborted) break;
      const values = await this.run(() => this.redis.hmget(this.key, ...batch));
      values.forEach((value, i) => {
        const entry = value === null ? undefined : unpack(value);
        if (!entry || entry.at < since) return;
        found(batch[i]!, entry.verdict, entry.at);
        count++;
      });
    }
    return count;
  }

  async store(verdicts: readonly Verdict[]): Promise<void> {
    if (verdicts.length === 0) return;
    const fields: string[] = [];
    for (const v of verdicts) fields.push(v.key, pack(v));
    await this.run(() => this.redis.hset(this.key, ...fields));
  }

  async stats(): Promise<CacheStats> {
    let oldest = Infinity;
    let newest = -Infinity;
    let entries = 0;
    for await (const [, value] of this.entries()) {
      const at = unpack(value)?.at;
      entries++;
      if (at === undefined) continue;
      oldest = Math.min(oldest, at);
      newest = Math.max(newest, at);
    }
    const bytes = await this.run(() => this.redis.memory('USAGE', this.key) as Promise<number | null>);
    return { entries, oldest: statsDate(oldest), newest: statsDate(newest), bytes: bytes ?? 0 };
  }

  async clear(before?: number): Promise<number> {
    if (before === undefined) {
      const n = await this.run(() => this.redis.hlen(this.key));
      await this.run(() => this.redis.del(this.key));
      return n;
    }
    let removed = 0;
    for await (const [field, value] of this.entries()) {
      const at = unpack(value)?.at;
      if (at !== undefined && at >= before) continue;
      removed += await this.run(() => this.redis.hdel(this.key, field));
    }
    return removed;
  }

  /** Fields written before keys were folded (dedupeKey) take the folded form once, the newer answer kept. */
  async foldKeys(): Promise<void> {
    if ((await this.run(() => this.redis.set(`${this.key}:folded`, '1', 'NX'))) === null) return;
    for await (const [field, value] of this.entries()) {
      const folded = asciiLower(field);
      if (folded === field) continue;
      const other = await this.run(() => this.redis.hget(this.key, folded));
      const newer = other === null || (unpack(value)?.at ?? 0) > (unpack(other)?.at ?? 0);
      const change = this.redis.multi();
      if (newer) change.hset(this.key, folded, value);
      await this.run(() => change.hdel(this.key, field).exec());
    }
  }

  /** Every field and value, a page at a time (HSCAN). */
  private async *entries(): AsyncGenerator<[string, string]> {
    let cursor = '0';
    do {
      const [next, flat] = await this.run(() => this.redis.hscan(this.key, cursor, 'COUNT', 1000));
      for (let i = 0; i < flat.length; i += 2) yield [flat[i]!, flat[i + 1]!];
      cursor = next;
    } while (cursor !== '0');
  }

  /** The connection is the state's (it carries the limiter and the claims too): the state closes it. */
  async close(): Promise<void> {}
}
