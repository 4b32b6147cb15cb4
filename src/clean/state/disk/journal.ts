import { closeSync, constants, existsSync, fdatasync, mkdirSync, openSync, readSync, unlinkSync, write } from 'node:fs';
import { dirname } from 'node:path';
import { breakLock, describeOwner, keepFresh, staleReason, tryLock } from '../../../lock-files.js';
import { asciiLower } from '../../../verify/syntax.js';
import type { Verdict } from '../../verdict/verdict.js';
import type { ListJournal, ListLockEvents, NumberedAnswer, NumberedKeys, SavedAnswers } from '../account-state.js';
import { readLineBytes } from './journal-line-bytes.js';
import { batchLine, readBatchLine } from './journal-lines.js';

/** One line a batch, on disk before the batch counts: a killed run loses at most the batches in flight. */
export class Journal implements ListJournal {
  private fd?: number;
  /** Recorded while the write before them is under way: the next write takes them all, with one flush. */
  private waiting: string[] = [];
  private nextWrite?: Promise<void>;
  private lastWrite: Promise<void> = Promise.resolve();
  /** A count, not the answers: a run holding each answer it sent grew by the list's size. */
  recorded = 0;

  private constructor(readonly path: string) {}

  /** Each answer with its own key, without opening the journal for writing. */
  static peek(path: string): SavedAnswers {
    const results = new Map<string, Verdict>();
    const { badLines } = Journal.read(path, (key, verdict) => results.set(key, { ...verdict, key }));
    return { results, badLines };
  }

  /** Answers alike share a verdict, its key empty. */
  static read(path: string, found: (key: string, verdict: Verdict) => void): { badLines: number } {
    return readLines(path, (text, start, end) => readLine(text.toString('utf8', start, end), found));
  }

  /** `read` for a list's addresses only, each by its number: the addresses' text is made only when asked for. */
  static readNumbered(path: string, keys: NumberedKeys, found: NumberedAnswer): { badLines: number } {
    return readLines(path, (text, start, end) => {
      if (readLineBytes(text, start, end, keys, found)) return 'read';
      const foundKey = (written: string, verdict: Verdict) => {
        const key = keys.foldsCase ? asciiLower(written) : written;
        const ordinal = keys.ordinal(key);
        if (ordinal >= 0) found(ordinal, verdict, () => key);
      };
      return readLine(text.toString('utf8', start, end), foundKey);
    });
  }

  static open(path: string, opts: { restart: boolean }): Journal {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (opts.restart && existsSync(path)) unlinkSync(path);
    const journal = new Journal(path);
    journal.fd = openSync(path, APPEND_DURABLY, 0o600);
    return journal;
  }

  record(verdicts: Verdict[]): Promise<void> {
    if (verdicts.length === 0) return Promise.resolve();
    const fd = this.fd;
    if (fd === undefined) return Promise.reject(new Error('journal is closed'));
    this.recorded += verdicts.length;
    this.waiting.push(`${batchLine(verdicts)}\n`);
    this.nextWrite ??= this.lastWrite.then(() => {
      this.nextWrite = undefined;
      const text = this.waiting.join('');
      this.waiting = [];
      return appendDurably(fd, Buffer.from(text));
    });
    this.lastWrite = this.nextWrite;
    return this.nextWrite;
  }

  /** Once what was recorded is written (or failed to be). */
  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    await this.lastWrite.catch(() => undefined);
    if (fd !== undefined) closeSync(fd);
  }
}

/** Opened so that each write returns once its data is on disk (O_DSYNC): no separate fdatasync a batch. */
const APPEND_DURABLY = constants.O_DSYNC
  ? constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC
  : 'a';

async function appendDurably(fd: number, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length; ) {
    at += await new Promise<number>((resolve, reject) =>
      write(fd, data, at, data.length - at, null, (error, n) => (error ? reject(error) : resolve(n))),
    );
  }
  if (!constants.O_DSYNC)
    await new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

/** A lock not refreshed for several refreshes has no run holding it. */
const LOCK_REFRESH_MS = 10_000;
const LOCK_STALE_MS = 60_000;

export interface LockJournalOptions extends ListLockEvents {
  pollMs?: number;
}

/** One run at a time per list and account, so two never pay for the same addresses. Returns the release. */
export async function lockJournal(path: string, opts: LockJournalOptions): Promise<() => void> {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const lockPath = `${path}.lock`;
  let told = false;
  for (;;) {
    const attempt = tryLock(lockPath);
    if (attempt.taken) {
      const stopRefreshing = keepFresh(lockPath, LOCK_REFRESH_MS);
      return () => {
        stopRefreshing();
        attempt.release();
      };
    }
    const why = staleReason(attempt.owner, LOCK_STALE_MS);
    if (why !== undefined) {
      breakLock(lockPath, attempt.owner);
      opts.onTakeOver?.(describeOwner(attempt.owner), why);
      continue;
    }
    if (!told) opts.onWait?.(describeOwner(attempt.owner));
    told = true;
    if (opts.signal?.aborted) throw opts.signal.reason;
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 200));
  }
}

/** Read this much of a journal at a time: larger reads kept its lines alive into V8's old space. */
const READ_CHUNK = 1 << 16;

/** Each line's bytes to `onLine`; the torn tail of a killed write is read too, but not counted as damage. */
function readLines(path: string, onLine: (text: Buffer, start: number, end: number) => LineRead): { badLines: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { badLines: 0 };
    throw error;
  }
  let badLines = 0;
  try {
    let text = Buffer.alloc(READ_CHUNK);
    // The start of a line whose end is not read yet, at the start of `text`.
    let kept = 0;
    for (;;) {
      if (kept === text.length) text = Buffer.concat([text, Buffer.alloc(text.length)]);
      const filled = kept + readSync(fd, text, kept, text.length - kept, null);
      if (filled === kept) break;
      let start = 0;
      for (let end = text.indexOf(10, start); end >= 0 && end < filled; end = text.indexOf(10, start)) {
        if (onLine(text, start, end) === 'damaged') badLines++;
        start = end + 1;
      }
      kept = text.copy(text, 0, start, filled);
    }
    onLine(text, 0, kept);
  } finally {
    closeSync(fd);
  }
  return { badLines };
}

type LineRead = 'read' | 'damaged';

function readLine(line: string, found: (key: string, verdict: Verdict) => void): LineRead {
  if (!line) return 'read';
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return 'damaged';
  }
  return readBatchLine(entry, found) ? 'read' : 'damaged';
}
