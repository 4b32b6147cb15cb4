// The account's state shared by runners on several machines (--shared redis://…): the rate limit, the verdict
// cache and the address claims live in Redis; a list's journal and the allowance news stay on this machine.
import type { Redis } from 'ioredis';
import type { Rate } from '../../../config/rate.js';
import { redactUrl } from '../../../redact.js';
import type { AccountState } from '../account-state.js';
import type { AllowanceNews, KnownAllowance } from '../local/allowance-file.js';
import type { LocalAccountState } from '../local/local-state.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { VerdictCache } from '../verdict-cache.js';
import { Claims } from './claims.js';
import { connectShared } from './connect.js';
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
    private readonly local: LocalAccountState,
  ) {
    this.verdicts = new RedisVerdictCache(redis, url, sharedCacheKey(account));
    this.addressClaims = new Claims(redis, url, keyPrefix(account));
  }

  /** Connects at once: a Redis that cannot be reached is known before anything is sent. */
  static async connect(url: string, account: string, local: LocalAccountState): Promise<RedisAccountState> {
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

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

const keyPrefix = (account: string) => `mailclean:${account}`;

/** The Redis key of an account's verdict cache: what `clean --shared` writes and `cache --shared` reads. */
export const sharedCacheKey = (account: string) => `${keyPrefix(account)}:cache`;
