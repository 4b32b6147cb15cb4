// What a run is asked to do; commands build one from flags, the library API from code.
import type { Writable } from 'node:stream';
import type { Clock } from '../../clock.js';
import type { OpenInputOptions } from '../scan/input/index.js';
import type { OutputFormat } from '../write/formats/index.js';
import type { OutputPath } from '../write/output-path.js';
import type { RowReceiver } from '../write/write-rows.js';
import type { Threshold } from './thresholds.js';

/** The list as openInput reads it (`input` its path), and what the run does with it. */
export interface CleanRequest extends Omit<OpenInputOptions, 'path' | 'signal' | 'strict'> {
  /** A path, or '-' for `stdin`. */
  input: string;
  strict: boolean;
  /** Local parts told apart by the case of their letters (see dedupeKey); by default `Ann@x.com` is `ann@x.com`. */
  caseSensitive?: boolean;
  /** Rows with a mistyped domain are checked as its fix, written beside the row (`column`) or in its cell (`replace`). */
  fixTypos?: 'column' | 'replace';
  outputs: OutputsRequest;
  dryRun: boolean;
  /** Unset: ask. */
  earlierRun?: 'resume' | 'restart';
  yes: boolean;
  /** 0: the cache is not read. */
  maxAgeMs: number;
  failWhen?: readonly Threshold[];
  signals: RunSignals;
  clock: Clock;
  /** Without it, `runs resume` cannot repeat the run. */
  origin?: RunOrigin;
}

export interface RunOrigin {
  /** The arguments of `clean`, as they can be given again: paths absolute, secrets removed. */
  args: readonly string[];
  cwd: string;
  /** The id of the recorded run this one resumes (`runs resume ID`), which it keeps. */
  resumes?: string;
}

export interface OutputsRequest {
  format: OutputFormat;
  /** Undefined writes the rows to `stdout`, or hands them to `rows`. */
  output?: OutputPath;
  /** With in-place: where the input is copied before the output replaces it. */
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
  report?: OutputPath;
  stepSummary?: string;
  /** Default true. */
  countDomains?: boolean;
}

/** Two stages of stopping: `stop` lets the requests in flight finish and be kept, `abort` abandons them. */
export interface RunSignals {
  readonly stop: AbortSignal;
  readonly abort: AbortSignal;
  /** The exit code a stopped run ends with (130 for SIGINT, 143 for SIGTERM). */
  readonly exitCode: number;
}
