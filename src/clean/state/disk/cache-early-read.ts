// The cache's early read (cache-pass.ts): begun while the run scans its list, a worker reads the whole cache into a
// private file by when each answer was given (cache-spool.ts), and the pass reads it back from there a time bucket at
// a time, not waiting on SQLite.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { processTag } from '../../../lock-files.js';
import { type AnswerPage, BUCKETS, emptyPage } from './cache-pages.js';
import {
  AHEAD,
  IN_WORKER_FROM,
  PAGE,
  PageReader,
  type PassOptions,
  type PassReader,
  startWorker,
} from './cache-pass.js';
import { type OnFile, pageFile, piecesByBucket, type Spooled } from './cache-spool.js';

/** An open private file, by its descriptor (the worker's writes land in this process's table) and its path. */
interface Spool {
  fd: number;
  path: string;
}

/**
 * A worker thread begun while the run scans its list: it reads every answer given since `since` into a private file
 * (cache-spool.ts), by when it was given, tells once where every piece is, and ends, so its memory (a V8 isolate, a
 * SQLite connection) is given back before the pass. The pass reads the pieces from the file in this thread, a
 * bucket of them at a time, into one page's arrays. A file that took no more (a full disk), or a worker that ended
 * without saying it had read them all, leaves the pages to a PageReader that reads the cache again from its start.
 */
export class SpooledReader implements PassReader {
  private readonly worker: Worker;
  /** What the worker told once it had read every answer; 'short' if it ended without telling. */
  private readonly told: Promise<Spooled>;
  private spool: Spool | undefined;

  constructor(
    private readonly opts: Pick<PassOptions, 'path' | 'since' | 'size'>,
    spool: Spool,
  ) {
    this.spool = spool;
    this.worker = startWorker({ path: opts.path, since: opts.since, size: opts.size, spoolFd: spool.fd });
    this.told = new Promise<Spooled>((resolve, reject) => {
      this.worker.once('message', resolve);
      this.worker.once('error', reject);
      this.worker.once('exit', () => resolve('short'));
    });
    // A reader ended unread (end()) is not asked what went wrong.
    this.told.catch(() => {});
  }

  async *pages(stop?: AbortSignal): AsyncGenerator<AnswerPage> {
    try {
      const told = await Promise.race([this.told, stopped(stop)]);
      // The worker has said all it will: its isolate's memory goes back before the pass adds its own.
      await this.worker.terminate();
      if (told === 'short') yield* new PageReader({ ...this.opts, ahead: AHEAD }).pages(stop);
      else if (told !== undefined) yield* this.buckets(piecesByBucket(told.pieces), told.codes, stop);
    } finally {
      await this.end();
    }
  }

  /** The buckets in time order, each in pages of at most `size` answers and a piece (the first page tells every code). */
  private async *buckets(
    buckets: OnFile[][],
    codes: AnswerPage['newCodes'],
    stop?: AbortSignal,
  ): AsyncGenerator<AnswerPage> {
    const file = pageFile((this.spool as Spool).fd);
    const page = emptyPage(this.opts.size + BUCKETS.piece);
    page.newCodes = codes;
    for (const pieces of buckets) {
      for (const piece of pieces ?? []) {
        if (page.count + piece.count > this.opts.size + BUCKETS.piece) {
          yield page;
          if (stop?.aborted) return;
          [page.count, page.newCodes] = [0, []];
        }
        file.append(piece, page);
      }
      if (page.count === 0) continue;
      yield page;
      if (stop?.aborted) return;
      [page.count, page.newCodes] = [0, []];
    }
  }

  async end(): Promise<void> {
    await this.worker.terminate();
    const spool = this.spool;
    this.spool = undefined;
    if (spool) closeSpool(spool);
  }
}

/** About what an answer takes in the cache's file (a million: 55 MB). */
const FILE_BYTES_AN_ANSWER = 57;
/**
 * Beyond this list size no early read begins: a cache as large as such a list's is hundreds of MB on disk again
 * for the read ahead (about 48 bytes an answer), and its pass (tens of seconds at 10M rows) was not measured with it.
 */
const EARLY_UP_TO_LIST_BYTES = 256 * 2 ** 20;

/**
 * Whether a list of `listBytes` is likely to be read against a cache file of `cacheBytes` in one pass by a worker
 * (IN_WORKER_FROM answers or more, the list a third of them or more: its rows counted as if each were as long as an
 * answer on disk, most are longer, so the guess leans to reading early), and not too large (see above).
 */
export function worthReadingEarly(cacheBytes: number, listBytes: number): boolean {
  return (
    cacheBytes >= IN_WORKER_FROM * FILE_BYTES_AN_ANSWER &&
    listBytes * 3 >= cacheBytes &&
    listBytes <= EARLY_UP_TO_LIST_BYTES
  );
}

/**
 * A reader of the cache's pages started before the run wants them (while it scans its list), reading ahead into a
 * private file in `spillDir`: held in memory instead, a million answers would be 70 MB at the end of the scan, where
 * the run peaks (a page is about 0.55 MB; 24 pages held took a million-row copy to 1.31x a dry run's peak on Node
 * 24). Undefined when the file cannot be made: the pass then begins when the run wants it.
 */
export function readEarly(opts: Pick<PassOptions, 'path' | 'since'>, spillDir: string): PassReader | undefined {
  const spool = openSpool(spillDir);
  return spool && new SpooledReader({ ...opts, size: PAGE }, spool);
}

/**
 * A new private file for a reader's pages, removed from its directory at once where the system allows (its space
 * is given back when it is closed, whatever ends the run); else when the reader ends, or by the next run's
 * removeDeadSpools after a SIGKILL.
 */
function openSpool(spillDir: string): Spool | undefined {
  const path = join(spillDir, `answers-${processTag()}-${randomBytes(6).toString('hex')}.spool`);
  try {
    mkdirSync(spillDir, { recursive: true, mode: 0o700 });
    const fd = openSync(path, 'wx+', 0o600);
    try {
      rmSync(path);
    } catch {
      /* removed when the reader ends */
    }
    return { fd, path };
  } catch {
    return undefined;
  }
}

function closeSpool(spool: Spool): void {
  closeSync(spool.fd);
  rmSync(spool.path, { force: true });
}

/** Resolves (undefined) once `stop` is aborted; never without one. */
function stopped(stop?: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (stop?.aborted) resolve(undefined);
    stop?.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}
