// The account's state shared by runners on several machines (--shared redis://…): the rate limit, the cache, the
// claims, the spend and the run history live in Redis; the rest stays on this machine.
import type { Redis } from 'ioredis';
import type { Clock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import { redactUrl } from '../../../redact.js';
import type { AccountState, LoggedRun, MachineState, MonthSpend, RunRecord } from '../account-state.js';
import { monthOf } from '../month.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { VerdictCache } from '../verdict-cache.js';
import { Claims } from './claims.js';
import { askShared, connectShared } from './connect.js';
import { RedisLimiter } from './redis-limiter.js';
import { RedisRunLog } from './redis-run-log.js';
import { RedisVerdictCache } from './redis-verdict-cache.js';

export class RedisAccountState implements AccountState {
  readonly shared = true;
  private readonly verdicts: RedisVerdictCache;
  private readonly addressClaims: Claims;
  private readonly runLog: RedisRunLog;
  private folded?: Promise<void>;

  // A list's journal, lock and in-flight count stay where its run sends from (a kill is seen there), and the allowance
  // news with them.
  readonly journalFile: MachineState['journalFile'] = (...args) => this.machine.journalFile(...args);
  readonly savedAnswers: MachineState['savedAnswers'] = (...args) => this.machine.savedAnswers(...args);
  readonly readSavedAnswers: MachineState['readSavedAnswers'] = (...args) => this.machine.readSavedAnswers(...args);
  readonly openJournal: MachineState['openJournal'] = (...args) => this.machine.openJournal(...args);
  readonly lockList: MachineState['lockList'] = (...args) => this.machine.lockList(...args);
  readonly recordInFlight: MachineState['recordInFlight'] = (...args) => this.machine.recordInFlight(...args);
  readonly inFlight: MachineState['inFlight'] = (...args) => this.machine.inFlight(...args);
  readonly knownAllowance: MachineState['knownAllowance'] = (...args) => this.machine.knownAllowance(...args);
  readonly rememberAllowance: MachineState['rememberAllowance'] = (...args) => this.machine.rememberAllowance(...args);

  private constructor(
    private readonly redis: Redis,
    private readonly url: string,
    private readonly account: string,
    private readonly machine: MachineState,
  ) {
    this.verdicts = new RedisVerdictCache(redis, url, sharedCacheKey(account));
    this.addressClaims = new Claims(redis, url, keyPrefix(account));
    this.runLog = new RedisRunLog(redis, url, keyPrefix(account));
  }

  /** Connects at once (a Redis that cannot be reached is known before anything is sent); `machine` keeps the rest. */
  static async connect(url: string, account: string, machine: MachineState): Promise<RedisAccountState> {
    return new RedisAccountState(await connectShared(url), url, account, machine);
  }

  get clock(): Clock {
    return this.machine.clock;
  }

  get cacheLocation(): string {
    return `${redactUrl(this.url)} ${sharedCacheKey(this.account)}`;
  }

  limiter(rate: Rate): RateLimiter {
    return new RedisLimiter(this.redis, this.url, `${keyPrefix(this.account)}:limit`, rate, this.clock);
  }

  async cache(): Promise<VerdictCache> {
    this.folded ??= this.verdicts.foldKeys();
    await this.folded;
    return this.verdicts;
  }

  hasCache(): boolean {
    return true;
  }

  claims(): Claims {
    return this.addressClaims;
  }

  async recordSpend(addresses: number, at = this.clock.now()): Promise<void> {
    await this.machine.recordSpend(addresses, at);
    if (addresses <= 0) return;
    const key = spendKey(this.account, monthOf(at));
    await askShared(this.url, () => this.redis.multi().incrby(key, addresses).pexpire(key, SPEND_KEPT_MS).exec());
  }

  async spentInMonth(): Promise<MonthSpend> {
    const mine = await this.machine.spentInMonth();
    const allRunners = await askShared(this.url, () => this.redis.get(spendKey(this.account, mine.month)));
    return { ...mine, allRunners: Number(allRunners ?? 0) };
  }

  /** Kept on this machine too, where `runs` without a shared store looks. */
  async recordRun(run: RunRecord): Promise<void> {
    await this.machine.recordRun(run);
    await this.runLog.record(run);
  }

  /** Every runner's. */
  runs(): Promise<LoggedRun[]> {
    return this.runLog.list();
  }

  async forgetRuns(ids: readonly string[]): Promise<number> {
    await this.machine.forgetRuns(ids);
    return this.runLog.forget(ids);
  }

  async close(): Promise<void> {
    this.runLog.close();
    this.redis.disconnect();
  }
}

const keyPrefix = (account: string) => `mailclean:${account}`;
const spendKey = (account: string, month: string) => `${keyPrefix(account)}:spent:${month}`;
/** A month's count outlives its month long enough to be read in the next one. */
const SPEND_KEPT_MS = 62 * 86_400_000;

/** The Redis key of an account's verdict cache: what `clean --shared` writes and `cache --shared` reads. */
export const sharedCacheKey = (account: string) => `${keyPrefix(account)}:cache`;
