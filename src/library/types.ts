// The library API's public types, in one module that imports only types: what `mailclean`'s declarations show.
import type { PrecheckOutcome } from '../clean/check/precheck.js';
import type { DryRunFields } from '../clean/run/dry-run.js';
import type { RunEvent, RunQuestions } from '../clean/run/events.js';
import type { RunSummary } from '../clean/run/summary.js';
import type { InputEncoding } from '../clean/scan/input/encodings.js';
import type { Verdict } from '../clean/verdict/verdict.js';
import type { OutputFormat } from '../clean/write/formats/index.js';
import type { Rate } from '../config/rate.js';

export type Env = Record<string, string | undefined>;

/** How a client reaches the cleaning service and keeps what it learns. Every field is optional. */
export interface ClientOptions {
  /** The cleaning service's base URL. Without one, the built-in engine checks in-process and nothing is spent. */
  cleanUrl?: string;
  token?: string;
  /** The email the token signed in with: names the account as the CLI does, so both share its state. */
  email?: string;
  /** Where journals, the rate limiter's state and the verdict cache live (default: the CLI's data directory). */
  dataDir?: string;
  /** A shared store (`redis://HOST:PORT[/DB]`): the rate limit, the cache and claims shared with other runners. */
  shared?: string;
  /** At most N requests per window, as `50/5m`, or `{ requests, windowMs }` (default: the spec's 50/5m). */
  rate?: string | Rate;
  /** Requests in flight at once, 1 to 16 (default 4). */
  concurrency?: number;
  /** Take what these options leave out from this stored profile of the CLI, and the environment as the CLI reads it. */
  profile?: string;
  /** The environment read for proxies, timeouts, DNS servers and the data directory (default: `process.env`). */
  env?: Env;
  /** Each line of the HTTP log (secrets redacted), as the CLI's --debug prints it. */
  debug?: (line: string) => void;
}

/** What the built-in engine is asked to do. */
export interface EngineRequest {
  smtp?: boolean;
  smtpPort?: number;
  smtpFrom?: string;
  /** `ip[:port],…` (IPv6 as [ip]:port), or a list of them; else MAILCLEAN_DNS_SERVERS; else the system's resolver. */
  dnsServers?: string | readonly string[];
}

/** How addresses are checked, for `clean` and `verify` alike. */
export interface CheckOptions extends EngineRequest {
  /** The built-in engine in-process, even when the client has a cleaning service (nothing is spent). */
  local?: boolean;
  /** With the service: decide first for free what DNS and lists can, and send only the rest (default true). */
  precheck?: boolean;
  /** Reuse the service's answers younger than this: `30d`, `12h`, or milliseconds; 0 asks again (default 30d). */
  maxAge?: string | number;
  /** Tell `Ann@x.com` and `ann@x.com` apart (by default one address, as mailing platforms count subscribers). */
  caseSensitive?: boolean;
}

/** One clean. Without `output`, the rows are the run's to iterate. */
export interface CleanOptions extends CheckOptions {
  /** Write the rows to this file (atomically) instead of yielding them. */
  output?: string;
  format?: OutputFormat;
  /** `output` may name the input: it is replaced, and the input kept as NAME.bak.EXT (`book.bak.xlsx`). */
  inPlace?: boolean;
  /** Keep only rows with these statuses or reasons (`valid`, `catch_all` …); the rest go to `rejects` if given. */
  only?: string | readonly string[];
  rejects?: string;
  summaryJson?: string;
  /** A self-contained HTML report. */
  report?: string;
  /** Append a Markdown summary to this file (GitHub's GITHUB_STEP_SUMMARY). */
  stepSummary?: string;
  column?: string | number;
  sheet?: string | number;
  /** A workbook's numbers and dates as stored, not as the sheet shows them. */
  rawValues?: boolean;
  encoding?: InputEncoding;
  /** Refuse rows with more or fewer fields than the header, instead of keeping them. */
  strict?: boolean;
  /** CSV output: a ' before the input's cells a spreadsheet would run as formulas (default: on for a workbook). */
  escapeFormulas?: boolean;
  /** What messages call a stream or rows given as the input (default `stream`, `rows`). */
  name?: string;
  dryRun?: boolean;
  /** An earlier run of this list that did not finish: continue it, or start over. Unset: ask `questions`, else refuse. */
  earlierRun?: 'resume' | 'restart';
  maxSpend?: number;
  /** Conditions that end the run with exit code 5 once its outputs are written: `invalid>5%,unchecked>0`. */
  failWhen?: string;
  /** Asked before an earlier run is resumed and before a large spend; unset: nobody is asked. */
  questions?: RunQuestions;
  onEvent?: (event: RunEvent) => void;
  /** Stops the run: the requests in flight finish and their answers are kept; the run ends `interrupted`. */
  signal?: AbortSignal;
  /** Stops the run at once: the requests in flight are abandoned (their answers may be paid and lost). */
  abandon?: AbortSignal;
}

/** The verdict of one address, as `mailclean verify --json` prints it. */
export interface VerifyResult {
  address: string;
  status: Verdict['status'];
  reason: string;
  valid: boolean | null;
  disposable: boolean | null;
  validDomain: boolean | null;
  /** A free-mail provider's (gmail.com), and a function's (info@); null when not an address. */
  free: boolean | null;
  role: boolean | null;
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

export interface VerifyOptions extends CheckOptions {
  onEvent?: (event: VerifyEvent) => void;
  /** As `clean`'s: the addresses not checked stay `unchecked`. */
  signal?: AbortSignal;
  abandon?: AbortSignal;
}

/** How a run ended; `exitCode` is the one the CLI would end with. */
export type CleanResult =
  /** Every row written (exit 0), some unchecked (3), or a `failWhen` condition held (5). */
  | { kind: 'finished'; exitCode: number; summary: RunSummary }
  /** Stopped by `signal` or `abandon`: no rows written; the answers kept let the next run resume. */
  | { kind: 'interrupted'; exitCode: number; summary: RunSummary | null }
  /** `dryRun`: what a run would send and spend. */
  | { kind: 'dry-run'; exitCode: 0; dryRun: DryRunFields }
  /** A question was answered no: nothing was sent. */
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
  email_checked?: string | null;
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
