// The account directory in Redis, for runners on several machines: one hash, identity hash -> account key, each
// field set only if absent, so every machine resolves an identity to the account it was first seen with.
import type { Redis } from 'ioredis';
import type { AccountDirectory } from '../account-state.js';
import { askShared, connectShared } from './connect.js';

const KEY = 'mailclean:accounts';

export class RedisAccountDirectory implements AccountDirectory {
  private constructor(
    private readonly redis: Redis,
    private readonly url: string,
  ) {}

  static async connect(url: string): Promise<RedisAccountDirectory> {
    return new RedisAccountDirectory(await connectShared(url), url);
  }

  async find(identities: readonly string[]): Promise<string | undefined> {
    if (identities.length === 0) return undefined;
    const accounts = await askShared(this.url, () => this.redis.hmget(KEY, ...identities));
    return accounts.find((account) => account) ?? undefined;
  }

  async remember(identities: readonly string[], account: string): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const identity of identities) pipeline.hsetnx(KEY, identity, account);
    await askShared(this.url, () => pipeline.exec());
  }

  close(): void {
    this.redis.disconnect();
  }
}
