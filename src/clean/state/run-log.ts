// The account's run history (part of the account-state port): a record per run, written when it starts checking and
// again when it ends.
import { isObject } from '../../api/shape.js';
import type { ListStamp } from '../scan/input/stamp.js';

/** The exit code in words. */
export type RunOutcome = 'success' | 'partial' | 'failed-when' | 'interrupted' | 'failed' | 'cancelled';

export interface RunOutput {
  /** Absolute, or `-` for stdout. */
  path: string;
  role: 'output' | 'rejects' | 'summary' | 'report';
  /** Null for a file that holds no rows (the summary, the report). */
  rows: number | null;
}

export interface RunEnd {
  endedAt: string;
  outcome: RunOutcome;
  exitCode: number;
  /** Addresses charged by the service, with those of a killed attempt it resumed. */
  spent: number;
  /** Rows per status, when they were counted (not after a failure, nor an interruption without side files). */
  statuses: Record<string, number> | null;
  outputs: RunOutput[];
  allowanceLeft: number | null;
  /** Why sending stopped early, or why the run failed. */
  message: string | null;
}

export interface RunRecord {
  /** Eight hex digits, unique among the account's runs. */
  id: string;
  /** As messages name it (its file name, or `stdin`). */
  list: string;
  /** Absolute, or `-` for stdin. */
  input: string;
  /** Its journal is `journalFile(fingerprint)`. */
  fingerprint: string;
  /** The list as the run read it (or wrote it: --in-place), so that a changed list is never continued under it. */
  stamp?: ListStamp | null;
  checker: 'service' | 'local';
  startedAt: string;
  /** When a killed run was taken up again by a run of the same list (it keeps its id). */
  resumedAt: string | null;
  rows: number;
  unique: number;
  /** Answers the journal held at the start: what it gained since is the spend of a run killed before its end. */
  journaled: number;
  /** Addresses in flight when the attempts it took over were killed: not in the spend, maybe billed. */
  inFlightBefore?: number;
  host: string;
  pid: number;
  /** Paths absolute, secrets removed; null when not started from the command line. */
  cwd: string | null;
  args: string[] | null;
  /** Null until it ends; a run killed with SIGKILL never gets one. */
  end: RunEnd | null;
}

/** A recorded run, and whether its process still runs (for one without an end). */
export interface LoggedRun extends RunRecord {
  live: boolean;
}

export interface RunLog {
  /** The last record of an id wins. */
  recordRun(run: RunRecord): Promise<void>;
  /** Newest start first. */
  runs(): Promise<LoggedRun[]>;
  forgetRuns(ids: readonly string[]): Promise<number>;
  /** Addresses sent whose answers are not journaled yet: what a killed run may have been billed beyond its spend. */
  recordInFlight(id: string, addresses: number): void;
  /** Undefined when nothing is kept (it ended, or never sent). */
  inFlight(id: string): number | undefined;
}

/** Killed (no end, its process gone) or interrupted by a signal. */
export function isUnfinished(run: LoggedRun): boolean {
  return run.end === null ? !run.live : run.end.outcome === 'interrupted';
}

/** A run with rows it may still check (`runs resume ID`): unfinished, stopped early, or failed before counting. */
export function isResumable(run: LoggedRun): boolean {
  if (isUnfinished(run)) return true;
  if (run.end === null) return false;
  const { outcome, statuses } = run.end;
  return outcome === 'partial' || outcome === 'failed' || (statuses?.unchecked ?? 0) > 0;
}

/** A record as kept (its JSON); undefined for text that is not one (a torn line). */
export function parseRunRecord(text: string): RunRecord | undefined {
  let run: unknown;
  try {
    run = JSON.parse(text);
  } catch {
    return undefined;
  }
  const isRecord =
    isObject(run) &&
    typeof run.id === 'string' &&
    typeof run.startedAt === 'string' &&
    typeof run.fingerprint === 'string' &&
    typeof run.host === 'string' &&
    typeof run.pid === 'number' &&
    (run.end === null || isObject(run.end));
  return isRecord ? (run as unknown as RunRecord) : undefined;
}

export const newestFirst = (a: RunRecord, b: RunRecord) => b.startedAt.localeCompare(a.startedAt);
