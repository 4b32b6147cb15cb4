// The verdict cache's pass over its whole file (a list that is a good part of it), read by a worker thread: SQLite's
// pages and splitting them into answers cost as much as matching them against the list, and the machine has another
// core. The worker hands over each page as typed arrays (the addresses' UTF-8 and hashes, an answer's code and time),
// transferred, not copied, or (begun while the list is scanned) writes them to a file the run reads them from; the
// run's thread matches them by bytes and makes no string for an address not in the list.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { processTag } from '../../../lock-files.js';
import { type AnswerPage, emptyPage, pagesHere, transfers, type WorkerQuery, workerSource } from './cache-pages.js';
import { type OnFile, pageFile, type Spooled } from './cache-spool.js';

export interface PassOptions {
  path: string;
  since: number;
  /** Answers a page. */
  size: number;
  /** Pages read ahead of the one being matched: the memory the pass holds is about (ahead + 1) pages. */
  ahead: number;
  /** Ends the pass between pages. */
  stop?: AbortSignal;
  /** The key the pages begin after (none: from the first). */
  after?: string;
}

/** An open private file, by its descriptor (the worker's writes land in this process's table) and its path. */
interface Spool {
  fd: number;
  path: string;
}

/** Pages read for a pass, by a worker thread begun before or when the pass begins. */
export interface PassReader {
  pages(stop?: AbortSignal): AsyncGenerator<AnswerPage>;
  /** Stops the worker (a pass that ended early, or a reader not wanted) and frees what it holds. */
  end(): Promise<void>;
}

/** A worker thread reading the pages of `query`, run from its text (cache-pages.ts). */
function startWorker(query: WorkerQuery): Worker {
  return new Worker(workerSource(), {
    eval: true,
    workerData: query,
    // The worker's stdout and stderr are not the run's: nothing it could say belongs there.
    stdout: true,
    stderr: true,
    // Its garbage is a statement's text a page: a small young generation takes it back sooner (6 MB less at 1M).
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
}

/** What a worker said, in the order it came, waited for when nothing has. */
class Arrivals<T> {
  private readonly items: T[] = [];
  private wake: (() => void) | undefined;

  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  async next(): Promise<T> {
    while (this.items.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    return this.items.shift() as T;
  }
}

/**
 * A worker thread reading the pages of answers given since `since`, in key order, `ahead` pages ahead of the one
 * being matched; pages matched are given back for the next read.
 */
export class PageReader implements PassReader {
  private readonly worker: Worker;
  private readonly waiting = new Arrivals<AnswerPage | null | Error>();
  /** Pages asked of the worker and not yet arrived. */
  private asked = 0;

  constructor(private readonly opts: PassOptions) {
    this.worker = startWorker({ path: opts.path, since: opts.since, size: opts.size, after: opts.after });
    const arrive = (item: AnswerPage | null | Error) => {
      if (item !== null && !(item instanceof Error)) this.asked--;
      this.waiting.push(item);
    };
    this.worker.on('message', (page: AnswerPage | null) => arrive(page));
    this.worker.on('error', (error) => arrive(error));
    this.worker.on('exit', (code) =>
      arrive(code === 0 ? null : new Error(`the verdict cache's reader exited with ${code}`)),
    );
    for (let i = 0; i <= opts.ahead; i++) this.ask(null);
  }

  async *pages(stop?: AbortSignal): AsyncGenerator<AnswerPage> {
    try {
      for (;;) {
        const page = await this.waiting.next();
        if (page === null) return;
        if (page instanceof Error) throw page;
        if (stop?.aborted) return;
        yield page;
        // The worker is kept reading; its page given back only while few wait (see the class).
        if (this.asked === 0 || this.waiting.length + this.asked <= this.opts.ahead) this.ask(page);
      }
    } finally {
      await this.end();
    }
  }

  async end(): Promise<void> {
    await this.worker.terminate();
  }

  private ask(page: AnswerPage | null): void {
    this.asked++;
    if (page === null) this.worker.postMessage(null);
    else this.worker.postMessage(page, transfers(page));
  }
}

/**
 * A worker thread begun while the run scans its list: it reads every page of the answers given since `since` into a
 * private file (cache-spool.ts), telling each as it is written, and ends, so its memory (a V8 isolate, a SQLite
 * connection) is given back before the pass; the pass reads the pages from the file in this thread, into one page's
 * arrays. Pages the file did not take (a full disk), or a worker that ended without saying it had read them all,
 * are read by a PageReader that goes on after the last page on the file.
 */
export class SpooledReader implements PassReader {
  private readonly worker: Worker;
  private readonly spooled = new Arrivals<OnFile | 'all' | 'short' | Error>();
  private spool: Spool | undefined;

  constructor(
    private readonly opts: Pick<PassOptions, 'path' | 'since' | 'size'>,
    spool: Spool,
  ) {
    this.spool = spool;
    this.worker = startWorker({ path: opts.path, since: opts.since, size: opts.size, spoolFd: spool.fd });
    const arrive = (item: OnFile | 'all' | 'short' | Error) => this.spooled.push(item);
    this.worker.on('message', (told: Spooled) => arrive(told === null ? 'all' : 'after' in told ? 'short' : told));
    this.worker.on('error', (error) => arrive(error));
    // Once it has said 'all', this is never read.
    this.worker.on('exit', () => arrive('short'));
  }

  async *pages(stop?: AbortSignal): AsyncGenerator<AnswerPage> {
    const file = pageFile((this.spool as Spool).fd);
    let page: AnswerPage | null = null;
    let after = '';
    try {
      for (;;) {
        const item = await this.spooled.next();
        if (item === 'all' || stop?.aborted) return;
        if (item instanceof Error) throw item;
        if (item === 'short') {
          yield* new PageReader({ ...this.opts, ahead: AHEAD, after }).pages(stop);
          return;
        }
        page = file.read(item, page ?? emptyPage(this.opts.size));
        const { bytes, starts, count } = page;
        after = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
          'utf8',
          starts[count - 1],
          starts[count],
        );
        yield page;
      }
    } finally {
      await this.end();
    }
  }

  async end(): Promise<void> {
    await this.worker.terminate();
    const spool = this.spool;
    this.spool = undefined;
    if (spool) closeSpool(spool);
  }
}

/**
 * A cache of fewer answers is read in the run's own thread. A worker pays only by matching one page while it reads the
 * next; its start costs about 90 ms, before a service run's first request, and it reads 10-20% slower (50,000
 * answers: 256-272 ms read by a worker against 114-127 ms here, then 2 µs an answer to match; Node 22, 2 cores).
 */
const IN_WORKER_FROM = 50_000;
/**
 * Answers a page, matched against the list a page at a time. In key order, the list's numbers of a page's addresses
 * are scattered: sorted by number, 8,000 of them read the part of the list's keys on disk in a few sweeps (2,000 read
 * a window of it for nearly each). A page is typed arrays, not strings, so it does not live into V8's old space as
 * 32,000 lines did (a page of 2,000 lines a match: 315-327 MB at 10M rows against 249-261 MB). Pages of 32,000, three
 * in flight, peaked 7 MB higher at 10M rows than 8,000 (288-292 against 281-285 MB), for no less CPU.
 */
const PAGE = 8_000;
const AHEAD = 2;

/**
 * The pages of a cache of `total` answers, read by a worker thread unless the cache is small (IN_WORKER_FROM), or
 * by `reading`, a reader started earlier.
 */
export function passPages(
  total: number,
  opts: Pick<PassOptions, 'path' | 'since' | 'stop'>,
  reading?: PassReader,
): AsyncGenerator<AnswerPage> {
  if (reading) return reading.pages(opts.stop);
  const paged = { ...opts, size: PAGE, ahead: AHEAD };
  return total < IN_WORKER_FROM ? answerPagesHere(paged) : new PageReader(paged).pages(opts.stop);
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

/** The same pages read in this thread. */
async function* answerPagesHere(opts: PassOptions): AsyncGenerator<AnswerPage> {
  const reader = pagesHere(opts);
  try {
    let page: AnswerPage | null = null;
    while ((page = reader.next(page)) !== null) {
      if (opts.stop?.aborted) return;
      yield page;
    }
  } finally {
    reader.close();
  }
}
