// The rate limiter's state file (file-limiter.ts): the send times it holds, read back with times from a clock stepped
// back clamped, and the error that stops a run when it cannot be kept.
import { constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { isObject } from '../../../api/shape.js';
import { CliError, ExitCode, messageOf } from '../../../errors.js';

export interface Send {
  id: string;
  at: number;
  done?: number;
}

/** Later than now by more than this, a time says the clock was stepped back, not that another run just wrote it. */
const FUTURE_TOLERANCE_MS = 1_000;

/** Undefined when missing; rewritten in place, as a file renamed over it has its blocks written on the main thread. */
export function openSends(path: string): number | undefined {
  try {
    return openSync(path, constants.O_RDWR);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function createSends(path: string): number {
  return openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
}

/** A garbled file holds none; one that cannot be read is an error (sending blind could break the limit). */
export function readSends(fd: number | undefined, now: number): { sends: Send[]; clamped: boolean } {
  if (fd === undefined) return { sends: [], clamped: false };
  const text = firstLine(fd);
  let parsed: { sends?: unknown };
  try {
    parsed = JSON.parse(text) as { sends?: unknown };
  } catch {
    return { sends: [], clamped: false };
  }
  if (!isObject(parsed) || !Array.isArray(parsed.sends)) return { sends: [], clamped: false };
  let clamped = false;
  const sends = parsed.sends
    .filter(
      (s): s is Send =>
        typeof s === 'object' && s !== null && typeof (s as Send).id === 'string' && Number.isFinite((s as Send).at),
    )
    .map((s) => {
      const limit = now + FUTURE_TOLERANCE_MS;
      const done = Number.isFinite(s.done) ? (s.done! > limit ? now : s.done!) : undefined;
      const at = s.at > limit ? now : s.at;
      if (at !== s.at || (done !== undefined && done !== s.done)) clamped = true;
      return { id: s.id, at, ...(done !== undefined ? { done } : {}) };
    });
  return { sends, clamped };
}

/** Then cuts a longer old line's tail: a kill between leaves the new line first, and only the first line is read. */
export function writeSends(fd: number, sends: Send[]): void {
  const line = Buffer.from(`${JSON.stringify({ sends })}\n`);
  for (let at = 0; at < line.length; ) at += writeSync(fd, line, at, line.length - at, at);
  ftruncateSync(fd, line.length);
}

/** The file's text up to its first line end (a file written by a rename has none). */
function firstLine(fd: number): string {
  const bytes = Buffer.allocUnsafe(fstatSync(fd).size);
  let read = 0;
  for (let n = 1; read < bytes.length && n > 0; read += n) n = readSync(fd, bytes, read, bytes.length - read, read);
  const text = bytes.toString('utf8', 0, read);
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** The rate limiter cannot keep its state: the run must stop, since sending unbooked could break the limit. */
export class LimiterStateError extends CliError {
  override name = 'LimiterStateError';

  constructor(path: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason =
      code === 'ENOSPC'
        ? 'the disk is full'
        : code === 'EISDIR'
          ? 'a directory is in the way'
          : (code ?? messageOf(cause));
    super(
      `cannot keep the rate limiter's state in ${path}: ${reason}`,
      ExitCode.error,
      'free space in the data directory (MAILCLEAN_DATA_DIR) or fix it, then run the same command with --resume',
    );
  }
}
