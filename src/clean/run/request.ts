// What a clean is asked to do, whichever checker decides the addresses: the list, where the rows go, what the
// run may reuse or spend, and the signals that stop it. Commands build one from flags; the library API from code.
import type { Writable } from 'node:stream';
import type { Clock } from '../../clock.js';
import type { InputEncoding } from '../scan/input/encodings.js';
import type { OutputFormat } from '../write/formats/index.js';
import type { OutputPath } from '../write/output-path.js';
import type { RowReceiver } from '../write/write-rows.js';
import type { Threshold } from './thresholds.js';

export interface CleanRequest {
  /** A path, or '-' for `stdin`. */
  input: string;
  /** What '-' reads. */
  stdin?: NodeJS.ReadableStream;
  /** What messages call what '-' reads (default `stdin`). */
  stdinName?: string;
  /** The email column, by header name or 1-based number (default: detected). */
  column?: string;
  /** The sheet of a workbook, by name or 1-based number. */
  sheet?: string;
  /** A workbook's numbers and dates as stored, not as their formats show them (written as text). */
  rawValues?: boolean;
  encoding?: InputEncoding;
  /** A row with more or fewer fields than the header stops the run (a usage error) instead of being kept. */
  strict: boolean;
  /** Local parts told apart by the case of their letters (see dedupeKey); by default `Ann@x.com` is `ann@x.com`. */
  caseSensitive?: boolean;
  outputs: OutputsRequest;
  /** Read the list and report what a run would send and spend; send nothing. */
  dryRun: boolean;
  /** An earlier run of the same list that did not finish: continue it, or start over (paying again). Unset: ask. */
  earlierRun?: 'resume' | 'restart';
  /** Spend without asking. */
  yes: boolean;
  /** Answers younger than this are reused from the cache; 0: the cache is not read. */
  maxAgeMs: number;
  /** --fail-when: conditions that make the run end with exit 5 once its outputs are written. */
  failWhen?: readonly Threshold[];
  /** Where a spooled input and what passes the scan's memory budget are kept (private files, removed at the end). */
  spoolDir: string;
  signals: RunSignals;
  /** What the run reads dates and ages from: its start and end, the age of cached answers. */
  clock: Clock;
  /** How the run was started, for the run history (`mailclean runs`); without it, `runs resume` cannot repeat it. */
  origin?: RunOrigin;
}

export interface RunOrigin {
  /** The arguments of `clean`, as they can be given again: paths absolute, secrets removed. */
  args: readonly string[];
  /** The working directory. */
  cwd: string;
  /** The id of the recorded run this one resumes (`runs resume ID`): the run keeps that id. */
  resumes?: string;
}

export interface OutputsRequest {
  format: OutputFormat;
  /** Undefined writes the rows to `stdout`, or hands them to `rows`. */
  output?: OutputPath;
  /** The output replaces the input, which is copied here first. */
  backup?: string;
  stdout: Writable;
  /** CSV: the list's own cells that would start a formula are neutralised (default: on only for a workbook input). */
  escapeFormulas?: boolean;
  /** Without `output`: each row as an object (the JSON format's), instead of writing to `stdout` (the library API). */
  rows?: RowReceiver;
  /** Statuses and reasons kept in the main output; the rest go to `rejects` if given, else nowhere. */
  only?: ReadonlySet<string>;
  rejects?: OutputPath;
  summaryJson?: OutputPath;
  /** A self-contained HTML report. */
  report?: OutputPath;
  /** A file a Markdown summary is appended to (GitHub's GITHUB_STEP_SUMMARY). */
  stepSummary?: string;
  /** Whether the summary's top domains are counted (the library's result, --summary-json, --report); default true. */
  countDomains?: boolean;
}

/** Two stages of stopping: `stop` lets the requests in flight finish and be kept, `abort` abandons them. */
export interface RunSignals {
  readonly stop: AbortSignal;
  readonly abort: AbortSignal;
  /** The exit code a stopped run ends with (130 for SIGINT, 143 for SIGTERM). */
  readonly exitCode: number;
}
