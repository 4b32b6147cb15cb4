// A recorded run as `runs` and `runs view` show it and print it as JSON (docs/json.md).
import { hostname } from 'node:os';
import type { LoggedRun, MachineState } from '../../clean/state/account-state.js';
import { isResumable } from '../../clean/state/run-log.js';
import { fieldsOf } from '../../fields.js';

/** A run's JSON: its type is what `runJson` builds, so its fields are listed once more only in RUN_FIELDS. */
export type RunJson = ReturnType<typeof runJson>;

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

export function runJson(run: LoggedRun, machine: MachineState) {
  const end = run.end;
  // `running`: its process still runs; `unfinished`: it stopped before its end (killed).
  const status: 'running' | 'unfinished' | 'ended' = end ? 'ended' : run.live ? 'running' : 'unfinished';
  return {
    id: run.id,
    list: run.list,
    input: run.input,
    checker: run.checker,
    status,
    outcome: end?.outcome ?? null,
    exitCode: end?.exitCode ?? null,
    // It may still check rows: `mailclean runs resume ID` continues it.
    resumable: isResumable(run),
    startedAt: run.startedAt,
    resumedAt: run.resumedAt,
    endedAt: end?.endedAt ?? null,
    rows: run.rows,
    unique: run.unique,
    spent: end ? end.spent : spentSoFar(run, machine),
    // Addresses sent whose answers were never journaled (not in `spent`; maybe billed); null where unknown.
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
