// Who decides a run's addresses: the cleaning service (check/service/) or the built-in engine (check/engine/).
import type { Clock } from '../../clock.js';
import type { Rate } from '../../config/rate.js';
import type { EngineSettings } from '../check/engine/engine-settings.js';
import type { CheckOutcome } from '../check/outcome.js';
import type { KeysExcept } from '../scan/keys-except.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { KnownAllowance, RunLog } from '../state/account-state.js';
import type { VerdictCache } from '../state/verdict-cache.js';
import type { DomainProviders } from '../verdict/domain-providers.js';
import type { ExtraColumn } from '../verdict/verdict.js';
import type { VerdictTable } from '../verdict/verdict-table.js';
import type { RunPorts } from './events.js';
import type { RunSignals } from './request.js';

export interface Checker {
  /**
   * 'service': answers are journaled (an interrupted run counts them), and a changed input is matched by address in
   * the write pass (a run that lasts hours); 'local': answers are not kept, and a changed input is refused.
   */
  readonly kind: 'service' | 'local';
  readonly extraColumns: readonly ExtraColumn[];
  /** The service's URL, credentials redacted (summaries say who answered). */
  readonly service?: string;
  /** Undefined without an account. */
  readonly runLog?: RunLog;
  readonly precheck?: EngineSettings;
  /** Each domain's mail provider, filled by the engine's or the precheck's lookups; undefined: no DNS is asked. */
  readonly providers?: DomainProviders;
  /** Told each new address while the list is read (the engine looks its domain up meanwhile). */
  onNewKey?(key: string): void;
  /** A run that checks locks the list first; 'cancel' when the user chose not to go on. */
  known(list: ListToCheck, ports: RunPorts): Promise<KnownSources | 'cancel'>;
  /** Undefined when nothing is paid. */
  cost?(): Cost;
  check(work: CheckWork, ports: RunPorts): Promise<CheckOutcome>;
  /** Keeps what the check learned (the allowance, the spend) for later runs. */
  settle?(outcome: CheckOutcome): Promise<void>;
  close(): Promise<void>;
}

export interface ListToCheck {
  fingerprint: string;
  unique: UniqueKeys;
  dryRun: boolean;
  restart: boolean;
  maxAgeMs: number;
  signals: RunSignals;
  earlierRun(saved: number): Promise<'resume' | 'restart' | 'cancel'>;
}

export interface KnownSources {
  signedIn: boolean;
  /** The answers an earlier run of this list paid for: the run's verdict table from here on. */
  journaled: VerdictTable;
  /** Opened when first asked for; undefined when it cannot be (warned) or there is none. */
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
  /** A view, never a copy. */
  pending: KeysExcept;
  keys: UniqueKeys;
  verdicts: VerdictTable;
  rows: number;
  signals: RunSignals;
  maxAgeMs: number;
  /** The run's: what the engine's verdicts are dated by. */
  clock: Clock;
}
