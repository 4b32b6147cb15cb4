// A recorded run as `runs` and `runs view` show it and print it as JSON (docs/json.md).
import { hostname } from 'node:os';
import type { LoggedRun, MachineState, RunOutcome, RunOutput } from '../../clean/state/account-state.js';
import { isResumable } from '../../clean/state/run-log.js';
import { fieldsOf } from '../../fields.js';

export interface RunJson {
  id: string;
  list: string;
  input: string;
  checker: 'service' | 'local';
  /** `running`: its process still runs; `unfinished`: it stopped before its end (killed); `ended`. */
  status: 'running' | 'unfinished' | 'ended';
  outcome: RunOutcome | null;
  exitCode: number | null;
  /** It may still check rows: `mailclean runs resume ID` continues it. */
  resumable: boolean;
  startedAt: string;
  resumedAt: string | null;
  endedAt: string | null;
  rows: number;
  unique: number;
  spent: number | null;
  /** Addresses sent whose answers were never journaled (not in `spent`; maybe billed); null where unknown. */
  inFlight: number | null;
  statuses: Record<string, number> | null;
  allowanceLeft: number | null;
  outputs: RunOutput[];
  message: string | null;
  host: string;
  pid: number;
  cwd: string | null;
  commandLine: string | null;
}

export const RUN_FIELDS = fieldsOf<RunJson>({
  id: true,
  list: true,
  input: true,
  checker: true,
  status: true,
  outcome: true,
  exitCode: true,
  resumable: true,
  startedAt: true,
  resumedAt: true,
  endedAt: true,
  rows: true,
  unique: true,
  spent: true,
  inFlight: true,
  statuses: true,
  allowanceLeft: true,
  outputs: true,
  message: true,
  host: true,
  pid: true,
  cwd: true,
  commandLine: true,
});

export function runJson(run: LoggedRun, machine: MachineState): RunJson {
  const end = run.end;
  return {
    id: run.id,
    list: run.list,
    input: run.input,
    checker: run.checker,
    status: end ? 'ended' : run.live ? 'running' : 'unfinished',
    outcome: end?.outcome ?? null,
    exitCode: end?.exitCode ?? null,
    resumable: isResumable(run),
    startedAt: run.startedAt,
    resumedAt: run.resumedAt,
    endedAt: end?.endedAt ?? null,
    rows: run.rows,
    unique: run.unique,
    spent: end ? end.spent : spentSoFar(run, machine),
    inFlight: inFlightOf(run, machine),
    statuses: end?.statuses ?? null,
    allowanceLeft: end?.allowanceLeft ?? null,
    outputs: end?.outputs ?? [],
    message: end?.message ?? null,
    host: run.host,
    pid: run.pid,
    cwd: run.cwd,
    commandLine: run.args ? commandLine(run.args) : null,
  };
}

/** A run without an end paid for what its list's journal gained since it started; known on its machine only. */
function spentSoFar(run: LoggedRun, machine: MachineState): number | null {
  if (run.host !== hostname() || run.checker !== 'service') return run.checker === 'local' ? 0 : null;
  return Math.max(0, machine.savedAnswers(run.fingerprint).results.size - run.journaled);
}

/** What a run has (or had) in flight, with the attempts it took over; unknown for a run elsewhere. */
function inFlightOf(run: LoggedRun, machine: MachineState): number | null {
  const before = run.inFlightBefore ?? 0;
  if (run.end !== null || run.checker === 'local') return before;
  const now = run.host === hostname() ? machine.inFlight(run.id) : undefined;
  return now === undefined ? null : before + now;
}

/** The command that started the run, as it can be pasted into a POSIX shell. */
export function commandLine(args: readonly string[]): string {
  return ['mailclean', 'clean', ...args].map(shellWord).join(' ');
}

function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
