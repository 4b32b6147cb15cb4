// What a run has sent whose answers are not journaled yet, in a file per run rewritten in place at every change (never
// truncated, so a kill cannot leave it empty): a run killed with SIGKILL leaves what it may have been billed.
import { closeSync, constants, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

/** Digits of the count: more than any list holds addresses. */
const WIDTH = 12;

export function writeInFlight(path: string, addresses: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT, 0o600);
  try {
    writeSync(fd, `${String(Math.max(0, Math.trunc(addresses))).padStart(WIDTH, '0')}\n`, 0);
  } finally {
    closeSync(fd);
  }
}

/** The count last written; undefined when there is none (the run ended, or never sent) or it cannot be read. */
export function readInFlight(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
  return /^\d+\n$/.test(text) ? Number(text) : undefined;
}

export function removeInFlight(path: string): void {
  rmSync(path, { force: true });
}
