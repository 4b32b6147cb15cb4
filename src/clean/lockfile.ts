// Lock files shared by runs on this machine: created exclusively, holding the owner's pid, so one left behind by a
// killed run is recognised (its pid is gone) rather than waited on forever.
import { closeSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface LockOwner {
  pid?: number;
  /** When the lock file was last written (its mtime). */
  at: number;
}

export type LockAttempt = { taken: true; release(): void } | { taken: false; owner: LockOwner };

/** Takes the lock if nobody holds it; otherwise says who does. Other failures (a full disk, a directory in the way) throw. */
export function tryLock(path: string): LockAttempt {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { taken: false, owner: readOwner(path) };
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } catch (error) {
    // A lock we cannot say we own (a full disk) is not kept: nobody could tell it stale.
    closeSync(fd);
    unlinkSync(path);
    throw error;
  }
  closeSync(fd);
  return {
    taken: true,
    release: () => {
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    },
  };
}

function readOwner(path: string): LockOwner {
  try {
    const at = statSync(path).mtimeMs;
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? { pid, at } : { at };
  } catch {
    // Released between our attempt and this look: as good as stale.
    return { at: 0 };
  }
}

/** The owner's process is gone (same machine), so its lock protects nothing. */
export function ownerIsGone(owner: LockOwner): boolean {
  if (owner.pid === undefined) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Whether a lock may be taken over: its owner is gone, or it has been held longer than `maxAgeMs` in either
 * direction of the clock (a file dated in the future says the clock was stepped back, not that it is fresh).
 */
export function isStale(owner: LockOwner, maxAgeMs: number, now = Date.now()): boolean {
  return ownerIsGone(owner) || Math.abs(now - owner.at) > maxAgeMs;
}

/** Removes a stale lock so the next attempt can take it. */
export function breakLock(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* taken over by someone else meanwhile */
  }
}

/**
 * Removes the files in `dir` whose name carries the pid of a process that is gone (`pidOf` returns it, or
 * undefined for files that are not ours): what a run killed with SIGKILL could not clean up.
 */
export function removeLeftovers(dir: string, pidOf: (name: string) => number | undefined): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pidOf(name);
    if (pid === undefined || pid === process.pid || !ownerIsGone({ pid, at: 0 })) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      /* removed by someone else meanwhile */
    }
  }
}
