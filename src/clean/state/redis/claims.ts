// Claims between runners on several machines: a claim belongs to a runner whose liveness key it keeps fresh.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { batches } from '../../../batches.js';
import { ownerIsGone, processSpace } from '../../../lock-files.js';
import type { AddressClaims } from '../account-state.js';
import { askShared, unreachable } from './connect.js';

/** A claim outlives its runner's last sign of life by this much at most. */
const LIVENESS_MS = 15_000;

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
  readonly owner = `${processSpace()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly mine = new Set<string>();
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly url: string,
    /** The account's prefix: claims of one account never meet another's. */
    private readonly prefix: string,
    private readonly ttlMs = 24 * 3_600_000,
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

  /** Says this runner is alive, now and every few seconds until `release`. */
  async start(): Promise<void> {
    const beat = () => this.redis.set(this.liveKey(this.owner), '1', 'PX', LIVENESS_MS);
    await this.run(beat);
    this.heartbeat = setInterval(() => void beat().catch(() => undefined), LIVENESS_MS / 3);
    this.heartbeat.unref();
  }

  /** Claims what nobody holds; returns those now ours, and the others with their owners. */
  async claim(addresses: Iterable<string>): Promise<{ mine: string[]; theirs: string[] }> {
    const mine: string[] = [];
    const theirs: string[] = [];
    for (const batch of batches(addresses)) {
      const pipeline = this.redis.pipeline();
      for (const address of batch) pipeline.set(this.claimKey(address), this.owner, 'PX', this.ttlMs, 'NX');
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
          ? await this.run(() => this.redis.eval(TAKE_OVER, 1, this.claimKey(address), owner, this.owner, this.ttlMs))
          : await this.run(() => this.redis.set(this.claimKey(address), this.owner, 'PX', this.ttlMs, 'NX'));
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
    if (this.heartbeat) clearInterval(this.heartbeat);
    const keys = [...this.mine].map((a) => this.claimKey(a));
    this.mine.clear();
    for (const slice of batches(keys)) {
      await this.redis.eval(GIVE_BACK, slice.length, ...slice, this.owner).catch(() => undefined);
    }
    await this.redis.del(this.liveKey(this.owner)).catch(() => undefined);
  }
}

/** An owner in this process's space whose process is gone (a SIGKILL) loses its claims at once. */
function processOfOwnerGone(owner: string): boolean {
  const parts = owner.split(':');
  const pid = Number(parts.at(-2));
  if (!Number.isInteger(pid) || pid <= 0 || parts.slice(0, -2).join(':') !== processSpace()) return false;
  return ownerIsGone({ pid, at: 0 });
}
