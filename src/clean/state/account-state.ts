// An account's state: what its runs share between lists, runs and (with a shared store) machines. One port,
// chosen once by openAccountState; every caller (clean with the service, --local, --dry-run, `cache`, the token
// check) goes through it. A new store is one adapter beside local/ and redis/ plus one line in openAccountState.
import type { Rate } from '../../config/rate.js';
import type { AllowanceNews, KnownAllowance } from './disk/allowance-file.js';
import type { RateLimiter } from './rate-limiter.js';
import type { VerdictCache } from './verdict-cache.js';

/** Addresses a runner takes on before sending, so that runners sharing an account never pay twice. */
export interface AddressClaims {
  start(): Promise<void>;
  /** Claims what no live runner holds: `mine` to send, `theirs` to wait for. */
  claim(addresses: string[]): Promise<{ mine: string[]; theirs: string[] }>;
  /** Of these addresses claimed by others, those whose runner is gone, now claimed by this one. */
  takeOverFromGone(addresses: string[]): Promise<string[]>;
  release(): Promise<void>;
}

export interface AccountState {
  /** Where the account's shared answers live, as `cache path` prints it: a file, or a store's URL and key. */
  readonly cacheLocation: string;
  /** Runners on other machines share this state (their claims must be respected). */
  readonly shared: boolean;
  /** The journal of one list (by its fingerprint): always on this machine, as a run resumes where it ran. */
  journalFile(inputFingerprint: string): string;
  /** The account's rate limit, shared by every run that uses this state. */
  limiter(rate: Rate): RateLimiter;
  /** The verdict cache (opened on first use, closed with the state); rejects when the store cannot open it. */
  cache(): Promise<VerdictCache>;
  /** Whether answers were ever kept: a run that only reads need not create a store. */
  hasCache(): boolean;
  /** Claims of runners sharing the account; undefined when no other runner can share it. */
  claims(): AddressClaims | undefined;
  knownAllowance(): KnownAllowance | undefined;
  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void;
  /** Counts addresses spent now (charged by the service), for `mailclean allowance`. */
  recordSpend(addresses: number): Promise<void>;
  /** Addresses spent in the calendar month (UTC) of `now`: by this machine, and by every runner when shared. */
  spentInMonth(now?: number): Promise<MonthSpend>;
  close(): Promise<void>;
}

export interface MonthSpend {
  /** The month, as `2026-11`. */
  month: string;
  thisMachine: number;
  /** Every runner sharing the account; undefined when the state is not shared. */
  allRunners?: number;
}

export interface StateLocation {
  dataDir: string;
  account: string;
  /** A shared store's URL (redis://…); undefined keeps the state in the data directory. */
  sharedUrl?: string;
}

/** The account's state where `where` says; a shared store that cannot be reached rejects (SharedStateError). */
export async function openAccountState(where: StateLocation): Promise<AccountState> {
  const { DiskAccountState } = await import('./disk/disk-state.js');
  const local = new DiskAccountState(where.dataDir, where.account);
  if (where.sharedUrl === undefined) return local;
  const { RedisAccountState } = await import('./redis/redis-state.js');
  return RedisAccountState.connect(where.sharedUrl, where.account, local);
}
