// The account's state in this machine's data directory: journals, the allowance and the run history as files, the
// rate limit in a state file shared by concurrent runs, the verdict cache and the address claims in SQLite.
import { existsSync } from 'node:fs';
import { type Clock, realClock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import type {
  AccountState,
  AddressClaims,
  AllowanceNews,
  KnownAllowance,
  ListJournal,
  ListLockEvents,
  LoggedRun,
  MonthSpend,
  NumberedAnswer,
  NumberedKeys,
  RunRecord,
  SavedAnswers,
} from '../account-state.js';
import { monthOf } from '../month.js';
import type { RateLimiter } from '../rate-limiter.js';
import type { VerdictCache } from '../verdict-cache.js';
import { knownAllowance, rememberAllowance } from './allowance-file.js';
import { SlidingWindowLimiter } from './file-limiter.js';
import { readInFlight, removeInFlight, writeInFlight } from './in-flight-file.js';
import { Journal, lockJournal } from './journal.js';
import { type AccountFiles, accountFiles } from './paths.js';
import { appendRun, forgetRuns, readRuns } from './run-index.js';
import { recordSpend, spentInMonth } from './spend-file.js';
import { SqliteClaims } from './sqlite-claims.js';

export class DiskAccountState implements AccountState {
  readonly shared = false;
  private opened?: Promise<VerdictCache>;
  private readonly files: AccountFiles;

  constructor(
    readonly dataDir: string,
    readonly account: string,
    readonly clock: Clock = realClock,
  ) {
    this.files = accountFiles(dataDir, account);
  }

  get cacheLocation(): string {
    return this.files.cache;
  }

  journalFile(inputFingerprint: string): string {
    return this.files.journal(inputFingerprint);
  }

  savedAnswers(inputFingerprint: string): SavedAnswers {
    return Journal.peek(this.journalFile(inputFingerprint));
  }

  readSavedAnswers(inputFingerprint: string, keys: NumberedKeys, found: NumberedAnswer): { badLines: number } {
    return Journal.readNumbered(this.journalFile(inputFingerprint), keys, found);
  }

  openJournal(inputFingerprint: string, opts: { restart: boolean }): ListJournal {
    return Journal.open(this.journalFile(inputFingerprint), opts);
  }

  lockList(inputFingerprint: string, events: ListLockEvents): Promise<() => void> {
    return lockJournal(this.journalFile(inputFingerprint), events);
  }

  limiter(rate: Rate): RateLimiter {
    return new SlidingWindowLimiter({
      rate,
      clock: this.clock,
      statePath: this.files.limiter,
    });
  }

  cache(): Promise<VerdictCache> {
    this.opened ??= import('./sqlite-verdict-cache.js').then(
      ({ SqliteVerdictCache }) => new SqliteVerdictCache(this.cacheLocation),
    );
    return this.opened;
  }

  hasCache(): boolean {
    return existsSync(this.cacheLocation);
  }

  claims(): AddressClaims {
    return new SqliteClaims(this.files.claims);
  }

  knownAllowance(): KnownAllowance | undefined {
    return knownAllowance(this.files.allowance, this.clock.now());
  }

  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void {
    rememberAllowance(this.files.allowance, news, source, this.clock.now());
  }

  async recordSpend(addresses: number, at = this.clock.now()): Promise<void> {
    if (addresses > 0) recordSpend(this.files.spend, addresses, at);
  }

  async spentInMonth(): Promise<MonthSpend> {
    const month = monthOf(this.clock.now());
    return { month, thisMachine: spentInMonth(this.files.spend, month) };
  }

  /** A run's end forgets what it had in flight: its record says all there is. */
  async recordRun(run: RunRecord): Promise<void> {
    await appendRun(this.files.runs, run);
    if (run.end) removeInFlight(this.files.inFlight(run.id));
  }

  async runs(): Promise<LoggedRun[]> {
    return readRuns(this.files.runs);
  }

  async forgetRuns(ids: readonly string[]): Promise<number> {
    const forgotten = await forgetRuns(this.files.runs, ids);
    for (const id of ids) removeInFlight(this.files.inFlight(id));
    return forgotten;
  }

  recordInFlight(id: string, addresses: number): void {
    writeInFlight(this.files.inFlight(id), addresses);
  }

  inFlight(id: string): number | undefined {
    return readInFlight(this.files.inFlight(id));
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await (await opened?.catch(() => undefined))?.close();
  }
}
