// The verdict cache's pass over its whole file (a list that is a good part of it), read by a worker thread: SQLite's
// pages and splitting them into answers cost as much as matching them against the list, and the machine has another
// core. The worker hands over each page as typed arrays (the addresses' UTF-8 and hashes, an answer's code and time),
// transferred, not copied, or (begun while the list is scanned) writes them to a file the run reads them from; the
// run's thread matches them by bytes and makes no string for an address not in the list.
import { Worker } from 'node:worker_threads';
import { type AnswerPage, pagesHere, transfers, type WorkerQuery, workerSource } from './cache-pages.js';

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

/** Pages read for a pass, by a worker thread begun before or when the pass begins. */
export interface PassReader {
  pages(stop?: AbortSignal): AsyncGenerator<AnswerPage>;
  /** Stops the worker (a pass that ended early, or a reader not wanted) and frees what it holds. */
  end(): Promise<void>;
}

/** A worker thread reading the pages of `query`, run from its text (cache-pages.ts). */
export function startWorker(query: WorkerQuery): Worker {
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
 * A cache of fewer answers is read in the run's own thread. A worker pays only by matching one page while it reads the
 * next; its start costs about 90 ms, before a service run's first request, and it reads 10-20% slower (50,000
 * answers: 256-272 ms read by a worker against 114-127 ms here, then 2 µs an answer to match; Node 22, 2 cores).
 */
export const IN_WORKER_FROM = 50_000;
/**
 * Answers a page, matched against the list a page at a time. In key order, the list's numbers of a page's addresses
 * are scattered: sorted by number, 8,000 of them read the part of the list's keys on disk in a few sweeps (2,000 read
 * a window of it for nearly each). A page is typed arrays, not strings, so it does not live into V8's old space as
 * 32,000 lines did (a page of 2,000 lines a match: 315-327 MB at 10M rows against 249-261 MB). Pages of 32,000, three
 * in flight, peaked 7 MB higher at 10M rows than 8,000 (288-292 against 281-285 MB), for no less CPU.
 */
export const PAGE = 8_000;
export const AHEAD = 2;

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
