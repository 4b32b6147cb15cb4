// An account's state, shared between its lists, runs and (with a shared store) machines: the port every store
// implements. open-state.ts chooses the store.

import type { AllowanceNews } from '../../api/allowance.js';
import type { Clock } from '../../clock.js';
import type { Rate } from '../../config/rate.js';
import { messageOf } from '../../errors.js';
import type { Verdict } from '../verdict/verdict.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RunLog } from './run-log.js';
import type { VerdictCache } from './verdict-cache.js';

export type { AllowanceNews } from '../../api/allowance.js';
export type { LoggedRun, RunEnd, RunLog, RunOutcome, RunOutput, RunRecord } from './run-log.js';

export interface KnownAllowance extends AllowanceNews {
  asOf: string;
  source: 'signin' | 'refusal' | 'run';
}

/** `badLines`: lines that could not be read (their addresses are asked again). */
export interface SavedAnswers {
  results: Map<string, Verdict>;
  badLines: number;
}

/** Every answer the service gave for one list, kept before it counts: a run stopped at any moment resumes. */
export interface ListJournal {
  readonly path: string;
  /** Answers recorded since it was opened (an earlier run's are read with `readSavedAnswers`). */
  readonly recorded: number;
  /** Resolves once the answers are kept; a failure fails every record after it. */
  record(verdicts: Verdict[]): Promise<void>;
  close(): Promise<void>;
}

export interface ListLockEvents {
  signal?: AbortSignal;
  /** Another live run holds the list: told once, before waiting. */
  onWait?: (owner: string) => void;
  onTakeOver?: (owner: string, why: string) => void;
}

/** Addresses a runner takes on before sending, so that runners sharing an account never pay twice. */
export interface AddressClaims {
  start(): Promise<void>;
  /** `mine` to send, `theirs` (held by a live runner) to wait for. */
  claim(addresses: string[]): Promise<{ mine: string[]; theirs: string[] }>;
  /** Claims those of these addresses whose runner is gone. */
  takeOverFromGone(addresses: string[]): Promise<string[]>;
  release(): Promise<void>;
}

/** A list's addresses, found by their text or by their UTF-8 (UniqueKeys). */
export interface NumberedKeys {
  /** The keys' local parts are in lower case (dedupeKey): a key read elsewhere is folded first. */
  readonly foldsCase: boolean;
  ordinal(key: string): number;
  /** Key i is bytes[starts[i], starts[i + 1]) (-1 where unknown); fastest when they come in the list's order. */
  ordinalsInOrder(bytes: Uint8Array, starts: Int32Array): Int32Array;
}

/** `key()` makes the address's text: asked for then or never. */
export type NumberedAnswer = (ordinal: number, verdict: Verdict, key: () => string) => void;

/** What stays on this machine whichever store keeps the rest (a shared store keeps the run history too). */
export interface MachineState extends RunLog {
  /** A run resumes where it ran, so a list's journal is always on this machine. */
  journalFile(inputFingerprint: string): string;
  savedAnswers(inputFingerprint: string): SavedAnswers;
  /** Each saved answer for one of `keys`, to `found` as the journal is read (none kept here). */
  readSavedAnswers(inputFingerprint: string, keys: NumberedKeys, found: NumberedAnswer): { badLines: number };
  /** For appending; it reads nothing (`restart` removes what it held first). */
  openJournal(inputFingerprint: string, opts: { restart: boolean }): ListJournal;
  /** One run at a time per list and account: waits for another live run, takes over one left behind. */
  lockList(inputFingerprint: string, events: ListLockEvents): Promise<() => void>;
  knownAllowance(): KnownAllowance | undefined;
  /** News that does not say what is left forgets what was known. */
  rememberAllowance(news: AllowanceNews, source: KnownAllowance['source']): void;
  /** Counts addresses charged by the service at `at` (default: now), for `mailclean allowance`. */
  recordSpend(addresses: number, at?: number): Promise<void>;
  /** In this calendar month (UTC). */
  spentInMonth(): Promise<MonthSpend>;
  readonly clock: Clock;
}

export interface AccountState extends MachineState {
  /** As `cache path` prints it: a file, or a store's URL and key. */
  readonly cacheLocation: string;
  /** Runners on other machines share this state. */
  readonly shared: boolean;
  limiter(rate: Rate): RateLimiter;
  /** Opened on first use, closed with the state. */
  cache(): Promise<VerdictCache>;
  /** Whether answers were ever kept: a run that only reads need not create a store. */
  hasCache(): boolean;
  claims(): AddressClaims;
  close(): Promise<void>;
}

export interface MonthSpend {
  /** As `2026-11`. */
  month: string;
  thisMachine: number;
  /** Every runner's, when the state is shared. */
  allRunners?: number;
}

/** Which account each identity of a session (see account-key.ts) was seen with: hashes only. */
export interface AccountDirectory {
  /** The account of the first of these identities seen before. */
  find(identities: readonly string[]): Promise<string | undefined>;
  /** Remembers these identities as this account's; one already known keeps the account it had. */
  remember(identities: readonly string[], account: string): Promise<void>;
}

export interface StateLocation {
  dataDir: string;
  account: string;
  /** A shared store's URL (redis://…). */
  sharedUrl?: string;
  clock?: Clock;
}

/** A shared store that cannot be reached or answers an error. */
export class SharedStateError extends Error {
  constructor(
    readonly where: string,
    cause: unknown,
  ) {
    super(`the shared state at ${where} cannot be reached (${messageOf(cause)})`);
  }
}
