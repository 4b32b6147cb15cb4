// --shared redis://…: the limiter, the verdict cache and the claims of an account live in Redis, so runners on
// several machines never exceed the rate limit together and never pay twice.
import type { Redis } from 'ioredis';
import { RedisVerdictCache } from '../../clean/shared/cache.js';
import { Claims } from '../../clean/shared/claims.js';
import { checkSharedUrl, connectShared, SharedStateError } from '../../clean/shared/connect.js';
import { RedisLimiter } from '../../clean/shared/limiter.js';
import type { Rate } from '../../config/rate.js';
import { CliError } from '../../errors.js';
import type { Factory } from '../../factory.js';

export interface SharedState {
  url: string;
  limiter: RedisLimiter;
  cache: RedisVerdictCache;
  claims: Claims;
  close(): Promise<void>;
}

/** --shared, else MAILCLEAN_REDIS_URL, else the profile's `shared`; undefined when none is given. */
export async function sharedUrl(f: Factory, flag: string | undefined): Promise<string | undefined> {
  if (flag !== undefined) return checkSharedUrl(flag, '--shared');
  const fromEnv = f.io.env.MAILCLEAN_REDIS_URL;
  if (fromEnv) return checkSharedUrl(fromEnv, 'MAILCLEAN_REDIS_URL');
  const stored = (await f.profile()).settings().shared;
  return stored ? checkSharedUrl(stored, `shared in profile "${f.profileName}"`) : undefined;
}

/** Connects before anything is sent; a Redis that cannot be reached now is an error (nothing was spent). */
export async function openShared(url: string, account: string, rate: Rate): Promise<SharedState> {
  let redis: Redis;
  try {
    redis = await connectShared(url);
  } catch (error) {
    if (error instanceof SharedStateError) throw new CliError(`${error.message}: nothing was sent`, 1, 'check --shared (or MAILCLEAN_REDIS_URL), or run without it to use this machine only');
    throw error;
  }
  const prefix = keyPrefix(account);
  return {
    url,
    limiter: new RedisLimiter(redis, url, `${prefix}:limit`, rate),
    cache: new RedisVerdictCache(redis, url, sharedCacheKey(account)),
    claims: new Claims(redis, url, prefix),
    close: async () => {
      redis.disconnect();
    },
  };
}

/** The shared cache alone, for --local (which sends nothing): one that cannot be reached is a message, not an error. */
export async function openSharedCache(url: string, account: string): Promise<{ cache: RedisVerdictCache } | { error: string }> {
  try {
    return { cache: new RedisVerdictCache(await connectShared(url), url, sharedCacheKey(account), true) };
  } catch (error) {
    if (error instanceof SharedStateError) return { error: error.message };
    throw error;
  }
}

const keyPrefix = (account: string) => `mailclean:${account}`;

/** The Redis key of an account's verdict cache: what `clean --shared` writes and `cache --shared` reads. */
export const sharedCacheKey = (account: string) => `${keyPrefix(account)}:cache`;
