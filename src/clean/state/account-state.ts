// An account's state: what its runs share between lists, runs and (with a shared store) machines. This file is
// the port: it names what every store promises and imports no store (the run history's part is run-log.ts).
// open-state.ts chooses the store; every caller (clean with the service, --local, --dry-run, `cache`, `allowance`,
// `runs`, the token check) goes through it.
import type { AllowanceNews } from '../../api/allowance.js';
import type { Clock } from '../../clock.js';
import type { Rate } from '../../config/rate.js';
import type { Verdict } from '../verdict/verdict.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RunLog } from './run-log.js';
import type { VerdictCache } from './verdict-cache.js';

export type { AllowanceNews } from '../../api/allowance.js';
export type { LoggedRun, RunEnd, RunLog, RunOutcome, RunOutput, RunRecord } from './run-log.js';

/** Allowance news as remembered between runs: when it was learned, and from what. */
export interface KnownAllowance extends AllowanceNews {
  asOf: string;
  source: 'signin' | 'refusal' | 'run';
}

/** What an earlier run of a list saved: the answers, and how many lines could not be read (asked again). */
export interface SavedAnswers {
  results: Map<string, Verdict>;
  badLines: number;
}

/** Every answer the service gave for one list, kept before it counts: a run stopped at any moment resumes. */
export interface ListJournal {
  /** Where it is kept, for messages. */
  readonly path: string;
  /** The answers recorded since it was opened (an earlier run's are read with `readSavedAnswers`). */
  readonly recorded: ReadonlyMap<string, Verdict>;
  /** Resolves once the answers are kept; a failure fails every record after it. */
  record(verdicts: Verdict[]): Promise<void>;
  close(): Promise<void>;
}

/** Who holds a list's lock, and for how long it is waited on or taken over. */
export interface ListLockEvents {
  signal?: AbortSignal;
  /** Another live run holds the list (described as a user reads it): told once, before waiting. */
  onWait?: (owner: string) => void;
  /** A lock left behind was taken over, and why it was judged stale. */
  onTakeOver?: (owner: string, why: string) => void;
}

/** Addresses a runner takes on before sending, so that runners sharing an account never pay twice. */
export interface AddressClaims {
  start(): Promise<void>;
  /** Claims what no live runner holds: `mine` to send, `theirs` to wait for. */
  claim(addresses: string[]): Promise<{ mine: string[]; theirs: string[] }>;
  /** Of these addresses claimed by others, those whose runner is gone, now claimed by this one. */
  takeOverFromGone(addresses: string[]): Promise<string[]>;
  release(): Promise<void>;
}

/** A list's addresses, found by their text or by their UTF-8 (UniqueKeys). */
export interface NumberedKeys {
  /** The keys have their local parts' letters in lower case (see dedupeKey): a key read elsewhere is folded first. */
  readonly foldsCase: boolean;
  ordinal(key: string): number;
  /**
   * The number of each key given as bytes (key i is bytes[starts[i], starts[i + 1]); -1 where none), keys that come
   * mostly in the list's order.
   */
  ordinalsInOrder(bytes: Uint8Array, starts: Int32Array): Int32Array;
}

/** An answer for the address numbered `ordinal` in a list; `key()` makes its text, asked for then or never. */
export type NumberedAnswer = (ordinal: number, verdict: Verdict, key: () => string) => void;

/**
 * What stays on this machine whichever store keeps the rest: a list's journal and lock, the allowance news, the run
 * history (a shared store keeps it too, for every runner).
 */
export interface MachineState extends RunLog {
  /** The journal of one list (by its fingerprint): always on this machine, as a run resumes where it ran. */
  journalFile(inputFingerprint: string): string;
  /** What an earlier run of the list saved (nothing when none ran), without opening it for writing. */
  savedAnswers(inputFingerprint: string): SavedAnswers;
  /**
   * Each answer an earlier run of the list saved for one of its addresses (`keys`), to `found` by the address's
   * number as the journal is read (none kept here); returns how many lines were damaged.
   */
  readSavedAnswers(inputFingerprint: string, keys: NumberedKeys, found: NumberedAnswer): { badLines: number };
  /** Opens the list's journal for appending; it reads nothing (with `restart`, what it held is removed first). */
  openJournal(inputFingerprint: string, opts: { restart: boolean }): ListJournal;
  /** One run at a time per list and account: waits for another live run, takes over one left behind. */
  lockList(inputFingerprint: string, events: ListLockEvents): Promise<() => void>;
  knownAllowance(): KnownAllowance | undefined;
  /** Keeps news that says what is left; news that does not forgets what was known (`known-allowance.ts`). */
  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void;
  /** Counts addresses spent (charged by the service) at `at` (default: now), in its month, for `mailclean allowance`. */
  recordSpend(addresses: number, at?: number): Promise<void>;
  /** Addresses spent in this calendar month (UTC): by this machine, and by every runner when shared. */
  spentInMonth(): Promise<MonthSpend>;
  /** What the state reads dates and ages from. */
  readonly clock: Clock;
}

export interface AccountState extends MachineState {
  /** Where the account's shared answers live, as `cache path` prints it: a file, or a store's URL and key. */
  readonly cacheLocation: string;
  /** Runners on other machines share this state. */
  readonly shared: boolean;
  /** The account's rate limit, shared by every run that uses this state. */
  limiter(rate: Rate): RateLimiter;
  /** The verdict cache (opened on first use, closed with the state); rejects when the store cannot open it. */
  cache(): Promise<VerdictCache>;
  /** Whether answers were ever kept: a run that only reads need not create a store. */
  hasCache(): boolean;
  /** Claims of the runs sharing the account: this machine's, or every machine's when shared. */
  claims(): AddressClaims;
  close(): Promise<void>;
}

export interface MonthSpend {
  /** The month, as `2026-11`. */
  month: string;
  thisMachine: number;
  /** Every runner sharing the account; undefined when the state is not shared. */
  allRunners?: number;
}

/** Which account each identity of a session (see account-key.ts) was seen with: hashes only. */
export interface AccountDirectory {
  /** The account of the first of these identities that was seen before, if any. */
  find(identities: readonly string[]): Promise<string | undefined>;
  /** Remembers these identities as this account's; one already known keeps the account it had. */
  remember(identities: readonly string[], account: string): Promise<void>;
}

export interface StateLocation {
  dataDir: string;
  account: string;
  /** A shared store's URL (redis://…); undefined keeps the state in the data directory. */
  sharedUrl?: string;
  /** The real clock when absent. */
  clock?: Clock;
}

/** Thrown by a shared store's limiter, cache and claims when it cannot be reached or answers an error. */
export class SharedStateError extends Error {
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`the shared state at ${where} cannot be reached (${cause instanceof Error ? cause.message : String(cause)})`);
  }
}
