// Whether a recorded run's process still runs. Only this machine's processes can be asked; a shared store keeps
// its own sign of life for runners elsewhere.
import { hostname } from 'node:os';
import { ownerIsGone } from '../../lock-files.js';

/** The run was started on this machine, by this process or one that still runs. */
export function runsHere(run: { host: string; pid: number }): boolean {
  return run.host === hostname() && !ownerIsGone({ host: run.host, pid: run.pid, at: 0 });
}

/** The run is this process's own. */
export function isThisProcess(run: { host: string; pid: number }): boolean {
  return run.host === hostname() && run.pid === process.pid;
}
