// The account's state shared by runners on several machines (--shared redis://…): the rate limit, the verdict
// cache, the address claims and the run history live in Redis; a list's journal, the allowance news and what a run
// has in flight stay on this machine (and the run history too).
import type { Redis } from 'ioredis';
import type { Clock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import { redactUrl } from '../../../redact.js';
import type {
  AccountState,
  AllowanceNews,
  KnownAllowance,
  ListJournal,
  ListLockEvents,
  LoggedRun,
  MachineState,
  MonthSpend,
  NumberedAnswer,
  NumberedKeys,
  RunRecord,
  SavedAnswers,
} from '../account-state.js';
import { monthOf } from '../month.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { VerdictCache } from '../verdict-cache.js';
import { Claims } from './claims.js';
import { connectShared, unreachable } from './connect.js';
import { RedisLimiter } from './redis-limiter.js';
import { RedisRunLog } from './redis-run-log.js';
import { RedisVerdictCache } from './redis-verdict-cache.js';

export class RedisAccountState implements AccountState {
  readonly shared = true;
  private readonly verdicts: RedisVerdictCache;
  private readonly addressClaims: Claims;
  private readonly runLog: RedisRunLog;
  /** The cache's keys of an older mailclean folded, once a connection (see RedisVerdictCache.foldKeys). */
  private folded?: Promise<void>;

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

  /** Connects at once: a Redis that cannot be reached is known before anything is sent. */
  static async connect(url: string, account: string, machine: MachineState): Promise<RedisAccountState> {
    return new RedisAccountState(await connectShared(url), url, account, machine);
  }

  get clock(): Clock {
    return this.machine.clock;
  }

  get cacheLocation(): string {
    return `${redactUrl(this.url)} ${sharedCacheKey(this.account)}`;
  }

  journalFile(inputFingerprint: string): string {
    return this.machine.journalFile(inputFingerprint);
  }

  savedAnswers(inputFingerprint: string): SavedAnswers {
    return this.machine.savedAnswers(inputFingerprint);
  }

  readSavedAnswers(inputFingerprint: string, keys: NumberedKeys, found: NumberedAnswer): { badLines: number } {
    return this.machine.readSavedAnswers(inputFingerprint, keys, found);
  }

  openJournal(inputFingerprint: string, opts: { restart: boolean }): ListJournal {
    return this.machine.openJournal(inputFingerprint, opts);
  }

  lockList(inputFingerprint: string, events: ListLockEvents): Promise<() => void> {
    return this.machine.lockList(inputFingerprint, events);
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

  knownAllowance(): KnownAllowance | undefined {
    return this.machine.knownAllowance();
  }

  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void {
    this.machine.rememberAllowance(news, source);
  }

  async recordSpend(addresses: number, at = this.clock.now()): Promise<void> {
    await this.machine.recordSpend(addresses, at);
    if (addresses <= 0) return;
    const key = spendKey(this.account, monthOf(at));
    try {
      await this.redis.multi().incrby(key, addresses).pexpire(key, SPEND_KEPT_MS).exec();
    } catch (error) {
      throw unreachable(this.url, error);
    }
  }

  async spentInMonth(): Promise<MonthSpend> {
    const mine = await this.machine.spentInMonth();
    try {
      return { ...mine, allRunners: Number((await this.redis.get(spendKey(this.account, mine.month))) ?? 0) };
    } catch (error) {
      throw unreachable(this.url, error);
    }
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

  /** On this machine, as the list's journal: a run's requests leave from here, and a kill is seen here. */
  recordInFlight(id: string, addresses: number): void {
    this.machine.recordInFlight(id, addresses);
  }

  inFlight(id: string): number | undefined {
    return this.machine.inFlight(id);
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

/** The account's state in the Redis at `url`, with what stays on this machine kept by `machine`. */
export const openRedisState = (url: string, account: string, machine: MachineState) =>
  RedisAccountState.connect(url, account, machine);
