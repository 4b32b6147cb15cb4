// The library API's public types, in one module that imports only types: what `mailclean`'s declarations show.
import type { PrecheckOutcome } from '../clean/check/precheck.js';
import type { DryRunFields } from '../clean/run/dry-run.js';
import type { RunSummary } from '../clean/run/summary.js';
import type { Verdict } from '../clean/verdict/verdict.js';
import type {
  CHECK_OPTIONS,
  CLEAN_OPTIONS,
  CLIENT_OPTIONS,
  ENGINE_OPTIONS,
  OptionsOf,
  VERIFY_OPTIONS,
} from './option-shapes.js';

export type Env = Record<string, string | undefined>;

/** How a client reaches the cleaning service and keeps what it learns (docs/api.md). Every field is optional. */
export type ClientOptions = OptionsOf<typeof CLIENT_OPTIONS>;

/** What the built-in engine is asked to do. */
export type EngineRequest = OptionsOf<typeof ENGINE_OPTIONS>;

/** How addresses are checked, for `clean` and `verify` alike. */
export type CheckOptions = OptionsOf<typeof CHECK_OPTIONS>;

/** One clean: its options are `mailclean clean`'s flags (docs/api.md); without `output`, the run yields its rows. */
export type CleanOptions = OptionsOf<typeof CLEAN_OPTIONS>;

/** The verdict of one address, as `mailclean verify --json` prints it. */
export interface VerifyResult {
  address: string;
  status: Verdict['status'];
  reason: string;
  valid: boolean | null;
  disposable: boolean | null;
  validDomain: boolean | null;
  free: boolean | null;
  role: boolean | null;
  /** The mail provider behind the domain (`email_provider`), or null when not looked up or not known. */
  provider: string | null;
  suggestion: string | null;
  serviceStatus: string | null;
  checker: 'service' | 'precheck' | 'local';
  fromCache: boolean;
  checkedAt: string | null;
}

export type VerifyEvent =
  | { type: 'precheck'; outcome: PrecheckOutcome }
  | { type: 'warning'; message: string }
  | { type: 'debug'; message: string };

export type VerifyOptions = OptionsOf<typeof VERIFY_OPTIONS>;

/** How a run ended (docs/api.md); `exitCode` is the one the CLI would end with. */
export type CleanResult =
  | { kind: 'finished'; exitCode: number; summary: RunSummary }
  | { kind: 'interrupted'; exitCode: number; summary: RunSummary | null }
  | { kind: 'dry-run'; exitCode: 0; dryRun: DryRunFields }
  | { kind: 'cancelled'; exitCode: 0 };

export interface CleanRun extends AsyncIterable<ResultRow> {
  /** Settles once the run has ended: its result, or the error that ended it (a CliError carries its exit code). */
  readonly result: Promise<CleanResult>;
  /** The run's summary (as `summaryJson` writes it), once it has one. */
  readonly summary: RunSummary | undefined;
}

/** A row given by a program: the cells by column name, the cells in order, or an address alone. */
export type InputRow = Readonly<Record<string, unknown>> | readonly unknown[] | string;

export type CleanInput =
  | string
  | NodeJS.ReadableStream
  | ReadableStream<Uint8Array>
  | Uint8Array
  | Iterable<InputRow>
  | AsyncIterable<InputRow>;

/** The columns mailclean adds to each row (docs/json.md): the first eight always, the others as the run needs. */
export interface ResultColumns {
  email_status: Verdict['status'];
  email_valid: boolean | null;
  email_disposable: boolean | null;
  email_valid_domain: boolean | null;
  email_reason: string | null;
  email_checked_at: string | null;
  email_free: boolean | null;
  email_role: boolean | null;
  email_service_status?: string | null;
  email_checked_by?: 'service' | 'precheck' | 'local' | null;
  email_suggestion?: string | null;
  email_provider?: string | null;
  email_checked?: string | null;
  /** `fixTypos: 'column'`: the address the row was checked as, its mistyped domain corrected (null: not fixed). */
  email_fixed?: string | null;
  /** `fixTypos: 'replace'`: the email cell as it was, where its fix now stands (null: not fixed). */
  email_original?: string | null;
}

/** One row of the list as cleaned: its own columns (text, by header name), then mailclean's. */
export type ResultRow = ResultColumns & { readonly [column: string]: string | number | boolean | null | undefined };

export interface Client {
  /** Cleans a list: a path, a stream of a file's bytes, or rows; see docs/api.md. */
  clean(input: CleanInput, options?: CleanOptions): CleanRun;
  /** Checks a few addresses now (docs/api.md); every address's verdict, in the order given. */
  verify(addresses: readonly string[], options?: VerifyOptions): Promise<VerifyResult[]>;
  /** Closes the connection and the account's state. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
