// The account's state shared by runners on several machines (--shared redis://…): the rate limit, the verdict
// cache and the address claims live in Redis; a list's journal and the allowance news stay on this machine.
import type { Redis } from 'ioredis';
import type { Rate } from '../../../config/rate.js';
import { redactUrl } from '../../../redact.js';
import type { AccountState, MonthSpend } from '../account-state.js';
import type { AllowanceNews, KnownAllowance } from '../disk/allowance-file.js';
import type { DiskAccountState } from '../disk/disk-state.js';
import { monthOf } from '../month.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { VerdictCache } from '../verdict-cache.js';
import { Claims } from './claims.js';
import { connectShared, SharedStateError } from './connect.js';
import { RedisLimiter } from './redis-limiter.js';
import { RedisVerdictCache } from './redis-verdict-cache.js';

export class RedisAccountState implements AccountState {
  readonly shared = true;
  private readonly verdicts: RedisVerdictCache;
  private readonly addressClaims: Claims;

  private constructor(
    private readonly redis: Redis,
    private readonly url: string,
    private readonly account: string,
    private readonly local: DiskAccountState,
  ) {
    this.verdicts = new RedisVerdictCache(redis, url, sharedCacheKey(account));
    this.addressClaims = new Claims(redis, url, keyPrefix(account));
  }

  /** Connects at once: a Redis that cannot be reached is known before anything is sent. */
  static async connect(url: string, account: string, local: DiskAccountState): Promise<RedisAccountState> {
    return new RedisAccountState(await connectShared(url), url, account, local);
  }

  get cacheLocation(): string {
    return `${redactUrl(this.url)} ${sharedCacheKey(this.account)}`;
  }

  journalFile(inputFingerprint: string): string {
    return this.local.journalFile(inputFingerprint);
  }

  limiter(rate: Rate): RateLimiter {
    return new RedisLimiter(this.redis, this.url, `${keyPrefix(this.account)}:limit`, rate);
  }

  async cache(): Promise<VerdictCache> {
    return this.verdicts;
  }

  hasCache(): boolean {
    return true;
  }

  claims(): Claims {
    return this.addressClaims;
  }

  knownAllowance(): KnownAllowance | undefined {
    return this.local.knownAllowance();
  }

  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void {
    this.local.rememberAllowance(news, source);
  }

  async recordSpend(addresses: number): Promise<void> {
    await this.local.recordSpend(addresses);
    if (addresses <= 0) return;
    const key = spendKey(this.account, monthOf(Date.now()));
    try {
      await this.redis.multi().incrby(key, addresses).pexpire(key, SPEND_KEPT_MS).exec();
    } catch (error) {
      throw new SharedStateError(this.url, error);
    }
  }

  async spentInMonth(now = Date.now()): Promise<MonthSpend> {
    const mine = await this.local.spentInMonth(now);
    try {
      return { ...mine, allRunners: Number((await this.redis.get(spendKey(this.account, mine.month))) ?? 0) };
    } catch (error) {
      throw new SharedStateError(this.url, error);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

const keyPrefix = (account: string) => `mailclean:${account}`;
const spendKey = (account: string, month: string) => `${keyPrefix(account)}:spent:${month}`;
/** A month's count outlives its month long enough to be read in the next one. */
const SPEND_KEPT_MS = 62 * 86_400_000;

/** The Redis key of an account's verdict cache: what `clean --shared` writes and `cache --shared` reads. */
export const sharedCacheKey = (account: string) => `${keyPrefix(account)}:cache`;
