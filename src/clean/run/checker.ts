// Who decides the addresses of a run: a strategy the run skeleton (run-clean.ts) calls at each step. Two exist:
// the cleaning service (check/service/service-checker.ts) and the built-in engine (check/engine/engine-checker.ts).
import type { Rate } from '../../config/rate.js';
import type { EngineSettings } from '../check/engine/engine-settings.js';
import type { CheckOutcome } from '../check/outcome.js';
import type { KeysExcept } from '../scan/keys-except.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { KnownAllowance, RunLog } from '../state/account-state.js';
import type { VerdictCache } from '../state/verdict-cache.js';
import type { ExtraColumn } from '../verdict/verdict.js';
import type { VerdictTable } from '../verdict/verdict-table.js';
import type { RunPorts } from './events.js';
import type { RunSignals } from './request.js';

export interface Checker {
  /** As the summary names it. */
  readonly kind: 'service' | 'local';
  /** Columns only this checker fills. */
  readonly extraColumns: readonly ExtraColumn[];
  /** The service's URL, credentials redacted (summaries say who answered). */
  readonly service?: string;
  /** Whether the answers of an interrupted check are kept (journaled) and so count in its side files. */
  readonly keepsAnswers: boolean;
  /**
   * How rows find their verdicts in the write pass: by their address number, refusing an input that changed since
   * the scan ('refuse'), or matching a changed input by address (a run that lasts hours).
   */
  readonly changedInput: 'refuse' | 'match';
  /** The account's run history, where the run is recorded; undefined without an account. */
  readonly runLog?: RunLog;
  /** Decides for free before paying (the service's precheck): the engine's settings, or none. */
  readonly precheck?: EngineSettings;
  /** Told each new address while the list is read (the engine looks its domain up meanwhile). */
  onNewKey?(key: string): void;
  /**
   * What is known already: the answers an earlier run of this list paid for, and the account's cache. A run that
   * checks locks the list first; 'cancel' when the user chose not to go on.
   */
  known(list: ListToCheck, ports: RunPorts): Promise<KnownSources | 'cancel'>;
  /** What sending costs, for the dry run and the confirmation; undefined when nothing is paid. */
  cost?(): Cost;
  /** Checks what is pending; each verdict lands in `work.verdicts`. */
  check(work: CheckWork, ports: RunPorts): Promise<CheckOutcome>;
  /** Keeps what the check learned (the allowance, the spend) for later runs. */
  settle?(outcome: CheckOutcome): Promise<void>;
  close(): Promise<void>;
}

export interface ListToCheck {
  /** The list's identity (its journal is found by it). */
  fingerprint: string;
  unique: UniqueKeys;
  dryRun: boolean;
  /** --restart: an earlier run's answers are not reused. */
  restart: boolean;
  /** --max-age: the cache is read only when above 0. */
  maxAgeMs: number;
  signals: RunSignals;
  /** What to do with an earlier run that saved answers for `saved` of the list's addresses (asked, where the flags leave it open). */
  earlierRun(saved: number): Promise<'resume' | 'restart' | 'cancel'>;
}

export interface KnownSources {
  /** An account is known, so its journal and cache could be consulted. */
  signedIn: boolean;
  /**
   * The answers an earlier run of this list paid for, by address number (the list's addresses only): the run's
   * verdict table from here on.
   */
  journaled: VerdictTable;
  /** The account's cache, opened when first asked for; undefined when it cannot be (warned) or there is none. */
  cache?: () => Promise<VerdictCache | undefined>;
}

export interface Cost {
  rate: Rate;
  /** How long the rate limit makes `requests` more requests wait, counting what every run booked already. */
  waitFor(requests: number): Promise<number>;
  maxSpend?: number;
  allowance?: KnownAllowance;
}

export interface CheckWork {
  /** The list's addresses that no source answered (a view, never a copy). */
  pending: KeysExcept;
  keys: UniqueKeys;
  verdicts: VerdictTable;
  rows: number;
  signals: RunSignals;
  /** Answers at or after now minus this count (another runner's, found in the cache). */
  maxAgeMs: number;
}
