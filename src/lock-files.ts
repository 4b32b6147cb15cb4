// Lock files shared by runs: created exclusively, naming their owner (host, process space, pid, start time), and
// kept fresh by the owner, so one left behind is taken over rather than waited on forever.
import { createHash } from 'node:crypto';
import {
  closeSync,
  futimesSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface LockOwner {
  pid?: number;
  host?: string;
  /** Where its pid means something (`processSpace()`), if it said. */
  space?: string;
  /** When the owner took the lock (ISO 8601), if it said. */
  started?: string;
  /** When the lock file was last written or refreshed (its mtime). */
  at: number;
}

export type LockAttempt = { taken: true; release(): void } | { taken: false; owner: LockOwner };

/** A lock file still empty after this long was left by a run that died between creating and writing it. */
const EMPTY_GRACE_MS = 5_000;

/** Takes the lock if nobody holds it, else says who does; written aside and linked into place, never read half made. */
export function tryLock(path: string, now = Date.now()): LockAttempt {
  const draft = `${path}.${processTag()}.new`;
  const owner = { host: hostname(), space: processSpace(), pid: process.pid, started: new Date(now).toISOString() };
  const fd = openSync(draft, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
    // This machine's clock, as its refreshes use: a file server's clock could make a fresh lock look stale.
    futimesSync(fd, new Date(now), new Date(now));
  } catch (error) {
    // A lock we cannot say we own (a full disk) is not kept: nobody could tell it stale.
    closeSync(fd);
    unlinkSync(draft);
    throw error;
  }
  closeSync(fd);
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { taken: false, owner: readOwner(path) };
  } finally {
    unlinkSync(draft);
  }
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

/** What a lock file says of its owner; files from before owners were JSON hold only a pid. */
export function readOwner(path: string): LockOwner {
  let at: number;
  let text: string;
  try {
    at = statSync(path).mtimeMs;
    text = readFileSync(path, 'utf8').trim();
  } catch {
    // Released meanwhile: read as just taken, never as stale, since another run may be taking it this instant.
    return { at: Date.now() };
  }
  if (/^\d+$/.test(text)) return { pid: Number(text), at };
  try {
    const said = JSON.parse(text) as Record<'pid' | 'host' | 'space' | 'started', unknown>;
    const owner: LockOwner = { at };
    if (Number.isInteger(said.pid) && (said.pid as number) > 0) owner.pid = said.pid as number;
    for (const key of ['host', 'space', 'started'] as const) if (typeof said[key] === 'string') owner[key] = said[key];
    return owner;
  } catch {
    return { at };
  }
}

/** Where this process's pid means something: the host, and on Linux its pid namespace (containers share hostnames). */
export function processSpace(): string {
  if (space !== undefined) return space;
  let namespace = '';
  try {
    namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '';
  } catch {
    /* not Linux: the host alone */
  }
  space = namespace ? `${hostname()}/${namespace}` : hostname();
  return space;
}
let space: string | undefined;

/** This process in its leftover files' names (`1234~0a1b2c3d`): a pid and a tag of its space. */
export function processTag(): string {
  tag ??= createHash('sha256').update(processSpace()).digest('hex').slice(0, 8);
  return `${process.pid}~${tag}`;
}
let tag: string | undefined;

/** The owner's process is gone; only processes of this space can be asked (no space named: this host's). */
export function ownerIsGone(owner: LockOwner): boolean {
  if (owner.pid === undefined || (owner.host !== undefined && owner.host !== hostname())) return false;
  if (owner.space !== undefined && owner.space !== processSpace()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Why a lock may be taken over, or undefined: its owner is gone; it names none and is not new; or it was not refreshed
 * for `maxAgeMs` either way of the clock (covering reused pids and owners on other machines).
 */
export function staleReason(owner: LockOwner, maxAgeMs: number, now = Date.now()): string | undefined {
  if (ownerIsGone(owner)) return 'its run is gone';
  const age = Math.abs(now - owner.at);
  if (owner.pid === undefined && age > EMPTY_GRACE_MS) return 'it names no run';
  if (age > maxAgeMs) return `it was last refreshed ${Math.round(age / 1000)} s ago`;
  return undefined;
}

/** Who holds a lock, as a user reads it: "pid 123 on ci-runner-7, since 2026-11-24T10:00:00.000Z". */
export function describeOwner(owner: LockOwner): string {
  const who = owner.pid !== undefined ? `pid ${owner.pid}` : 'an unknown run';
  const where = owner.host !== undefined && owner.host !== hostname() ? ` on ${owner.host}` : '';
  return `${who}${where}${owner.started !== undefined ? `, since ${owner.started}` : ''}`;
}

/**
 * Takes a lock held for moments only (a booking at the limiter, an append to the run history), spinning briefly
 * rather than turn its callers into async code; one left behind for a few seconds is taken over.
 */
export function holdBriefly(path: string, staleMs = 5_000): () => void {
  const started = Date.now();
  for (;;) {
    const attempt = tryLock(path);
    if (attempt.taken) return attempt.release;
    if (staleReason(attempt.owner, staleMs) !== undefined) {
      breakLock(path, attempt.owner);
      continue;
    }
    if (Date.now() - started > 30_000) throw new Error(`the lock ${path} stays taken`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  }
}

/** Keeps a long-held lock fresh (its mtime) every `everyMs`, so others can tell it from one left behind. */
export function keepFresh(path: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      /* removed by a taker-over or a cleanup: nothing to keep fresh */
    }
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export function breakLock(path: string, judged: LockOwner): void {
  // Only the lock that was judged stale: if another run broke it and took the lock meanwhile, that one stays.
  if (!sameOwner(readOwner(path), judged)) return;
  try {
    unlinkSync(path);
  } catch {
    /* taken over by someone else meanwhile */
  }
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.at === b.at && a.pid === b.pid && a.started === b.started && a.host === b.host && a.space === b.space;
}

/** Removes what runs killed with SIGKILL left in `dir`: files whose `tagOf` names a gone process of this space. */
export function removeLeftovers(dir: string, tagOf: (name: string) => string | undefined): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  processTag();
  for (const name of names) {
    const [pidText, space] = tagOf(name)?.split('~') ?? [];
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    if ((space !== undefined && space !== tag) || !ownerIsGone({ pid, at: 0 })) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      /* removed by someone else meanwhile */
    }
  }
}
