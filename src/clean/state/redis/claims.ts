// Claims between runners on several machines: a claim belongs to a runner whose liveness key it keeps fresh.
import type { Redis } from 'ioredis';
import { batches } from '../../../batches.js';
import type { AddressClaims } from '../account-state.js';
import { CLAIM_TTL_MS, LIVENESS_MS, newOwner, processOfOwnerGone, startHeartbeat } from '../claim-owner.js';
import { askShared, unreachable } from './connect.js';

// KEYS[1] the claim; ARGV: the dead owner, the new owner. Takes the claim only if it is still the dead owner's.
const TAKE_OVER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0
`;

// KEYS: claims; ARGV[1]: the owner. Gives back only the claims that are still this owner's.
const GIVE_BACK = `
local n = 0
for _, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) n = n + 1 end
end
return n
`;

export class Claims implements AddressClaims {
  readonly owner = newOwner();
  private readonly mine = new Set<string>();
  private stopHeartbeat?: () => void;

  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    /** The account's prefix: claims of one account never meet another's. */
    private readonly prefix: string,
  ) {}

  private claimKey(address: string): string {
    return `${this.prefix}:claim:${address}`;
  }

  private liveKey(owner: string): string {
    return `${this.prefix}:runner:${owner}`;
  }

  private run<T>(command: () => Promise<T>): Promise<T> {
    return askShared(this.url, command);
  }

  async start(): Promise<void> {
    this.stopHeartbeat = await startHeartbeat(() =>
      this.run(() => this.redis.set(this.liveKey(this.owner), '1', 'PX', LIVENESS_MS)),
    );
  }

  /** Claims what nobody holds; returns those now ours, and the others with their owners. */
  async claim(addresses: Iterable<string>): Promise<{ mine: string[]; theirs: string[] }> {
    const mine: string[] = [];
    const theirs: string[] = [];
    for (const batch of batches(addresses)) {
      const pipeline = this.redis.pipeline();
      for (const address of batch) pipeline.set(this.claimKey(address), this.owner, 'PX', CLAIM_TTL_MS, 'NX');
      const results = await this.run(() => pipeline.exec());
      batch.forEach((address, i) => {
        const [error, reply] = results?.[i] ?? [new Error('no reply'), null];
        if (error) throw unreachable(this.url, error);
        if (reply === 'OK') {
          mine.push(address);
          this.mine.add(address);
        } else theirs.push(address);
      });
    }
    return { mine, theirs };
  }

  /** Of addresses claimed by others, those whose runner is gone: taken over, and returned. */
  async takeOverFromGone(addresses: string[]): Promise<string[]> {
    const taken: string[] = [];
    const alive = new Map<string, boolean>();
    const isAlive = async (owner: string) => {
      if (!alive.has(owner))
        alive.set(
          owner,
          !processOfOwnerGone(owner) && (await this.run(() => this.redis.exists(this.liveKey(owner)))) === 1,
        );
      return alive.get(owner)!;
    };
    for (const batch of batches(addresses)) {
      const owners = await this.run(() => this.redis.mget(...batch.map((a) => this.claimKey(a))));
      for (let i = 0; i < batch.length; i++) {
        const owner = owners[i];
        const address = batch[i]!;
        if (owner && (await isAlive(owner))) continue;
        const got = owner
          ? await this.run(() => this.redis.eval(TAKE_OVER, 1, this.claimKey(address), owner, this.owner, CLAIM_TTL_MS))
          : await this.run(() => this.redis.set(this.claimKey(address), this.owner, 'PX', CLAIM_TTL_MS, 'NX'));
        if (got === 1 || got === 'OK') {
          taken.push(address);
          this.mine.add(address);
        }
      }
    }
    return taken;
  }

  /** Gives back this runner's claims (the answered ones are in the cache; the rest are free for others). */
  async release(): Promise<void> {
    this.stopHeartbeat?.();
    const keys = [...this.mine].map((a) => this.claimKey(a));
    this.mine.clear();
    for (const slice of batches(keys)) {
      await this.redis.eval(GIVE_BACK, slice.length, ...slice, this.owner).catch(() => undefined);
    }
    await this.redis.del(this.liveKey(this.owner)).catch(() => undefined);
  }
}
