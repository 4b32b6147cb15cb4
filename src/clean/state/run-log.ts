// The account's run history, part of the account-state port (account-state.ts): a record per clean run, written when
// it starts checking and again when it ends. Kept by every store: the data directory holds this machine's runs, a
// shared store every runner's.
import type { ListStamp } from '../scan/input/stamp.js';

/** How a run ended: the exit code in words. */
export type RunOutcome = 'success' | 'partial' | 'failed-when' | 'interrupted' | 'failed' | 'cancelled';

export interface RunOutput {
  /** Absolute, or `-` for stdout. */
  path: string;
  role: 'output' | 'rejects' | 'summary' | 'report';
  /** Rows written there; null for a file that holds no rows (the summary, the report). */
  rows: number | null;
}

export interface RunEnd {
  endedAt: string;
  outcome: RunOutcome;
  exitCode: number;
  /** Addresses charged by the service in this run (with those of the attempt it resumed, when one was killed). */
  spent: number;
  /** Rows per status, when the rows were counted (not after a failure, nor an interruption without side files). */
  statuses: Record<string, number> | null;
  outputs: RunOutput[];
  /** What the service last said was left of the month's allowance, when the run ended. */
  allowanceLeft: number | null;
  /** Why sending stopped early, or why the run failed. */
  message: string | null;
}

export interface RunRecord {
  /** Eight hex digits, unique among the account's runs. */
  id: string;
  /** The list as messages name it (its file name, or `stdin`). */
  list: string;
  /** The input's absolute path, or `-` for stdin. */
  input: string;
  /** The list's identity: its journal is `journalFile(fingerprint)`. */
  fingerprint: string;
  /**
   * The list file as the run read it (as it wrote it, when it replaced it: --in-place), so that a list changed since
   * is never continued under this run; null for stdin, and in records written before it was kept.
   */
  stamp?: ListStamp | null;
  checker: 'service' | 'local';
  startedAt: string;
  /** When a run killed before it ended was taken up again by a run of the same list (it keeps its id). */
  resumedAt: string | null;
  rows: number;
  unique: number;
  /**
   * Answers the list's journal held when the run (or the killed run it took over) started: what the journal gained
   * since is what the run paid for, which is how the spend of a run killed before its end is known.
   */
  journaled: number;
  /**
   * Addresses in flight when the attempts it took over were killed: sent, their answers never journaled (so not in
   * the spend), maybe billed. Absent in records written before it was kept.
   */
  inFlightBefore?: number;
  /** Where it runs: the machine's host name and the process. */
  host: string;
  pid: number;
  /**
   * The working directory and the arguments of `clean` (paths absolute, secrets removed); null when it was not started
   * from the command line.
   */
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
  /** Keeps `run` (when it starts, and again when it ends): the last record of an id wins. */
  recordRun(run: RunRecord): Promise<void>;
  /** The runs recorded, newest start first. */
  runs(): Promise<LoggedRun[]>;
  /** Forgets these runs; resolves to how many were forgotten. */
  forgetRuns(ids: readonly string[]): Promise<number>;
  /**
   * Keeps, on this machine, how many addresses run `id` has sent whose answers are not journaled yet: what a killed
   * run may have been billed beyond its spend. Written at every change, forgotten at its end.
   */
  recordInFlight(id: string, addresses: number): void;
  /** What run `id` of this machine last had in flight; undefined when nothing is kept (it ended, or never told). */
  inFlight(id: string): number | undefined;
}

/** A run that stopped before its end: killed (no end, its process gone) or interrupted by a signal. */
export function isUnfinished(run: LoggedRun): boolean {
  return run.end === null ? !run.live : run.end.outcome === 'interrupted';
}

/**
 * A run with rows it may still check: unfinished, stopped early (the allowance, --max-spend, the service: partial),
 * or failed before it counted its rows. Its journal answers what it paid for; `runs resume ID` continues it.
 */
export function isResumable(run: LoggedRun): boolean {
  if (isUnfinished(run)) return true;
  if (run.end === null) return false;
  const { outcome, statuses } = run.end;
  return outcome === 'partial' || outcome === 'failed' || (statuses?.unchecked ?? 0) > 0;
}
