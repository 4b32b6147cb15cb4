// The verdict cache's pass over its whole file (a list that is a good part of it), read by a worker thread: SQLite's
// pages and splitting them into answers cost as much as matching them against the list, and the machine has another
// core. The worker hands over each page as typed arrays (the addresses' UTF-8 and hashes, an answer's code and time),
// transferred, not copied; the run's thread matches them by bytes and makes no string for an address not in the list.
import { Worker } from 'node:worker_threads';
import { hashBytes } from '../../scan/spill/hash-bytes.js';

/**
 * A page of answers in key order, `count` of them: answer i's address is bytes[starts[i], starts[i + 1]). The arrays
 * are longer than `count`: they go back to the worker once matched, for its next page (a pass allocates the memory of
 * a few pages, not of every page until a collection finds it).
 */
export interface AnswerPage {
  count: number;
  bytes: Uint8Array;
  starts: Int32Array;
  /** hashBytes of each address, as UniqueKeys hashes its own. */
  hashes: Uint32Array;
  /** Each answer's kind (what its verdict is made of): a number, told its text the first time it is used. */
  codes: Uint32Array;
  /** When each answer was given, epoch ms. */
  times: Float64Array;
  /** The text of each code first used in this page (flags, status and reason: see ANSWER_FIELDS). */
  newCodes: Array<[number, string]>;
}

export interface PassOptions {
  path: string;
  since: number;
  /** Answers a page. */
  size: number;
  /** Pages read ahead of the one being matched: the memory the pass holds is about (ahead + 1) pages. */
  ahead: number;
  /** Ends the pass between pages. */
  stop?: AbortSignal;
}

/** An answer's fields after its key and time, tab-separated: its flags, status and reason (hex: any text). */
export const ANSWER_FIELDS = 'flags || char(9) || hex(status) || char(9) || hex(reason)';

/** Each page of answers given since `since`, in key order, read by a worker thread a few pages ahead. */
async function* answerPages(opts: PassOptions): AsyncGenerator<AnswerPage> {
  const source = `(${readPages})(${pageReader}, ${hashBytes}, ${parseLines}, ${JSON.stringify(ANSWER_FIELDS)}, ${STATEMENT_ROWS})`;
  const worker = new Worker(source, {
    eval: true,
    workerData: { path: opts.path, since: opts.since, size: opts.size },
    // The worker's stdout and stderr are not the run's: nothing it could say belongs there.
    stdout: true,
    stderr: true,
    // Its garbage is a statement's text a page: a small young generation takes it back sooner (6 MB less at 1M).
    resourceLimits: { maxYoungGenerationSizeMb: 2 },
  });
  const waiting: Array<AnswerPage | null | Error> = [];
  let wake: (() => void) | undefined;
  const arrive = (item: AnswerPage | null | Error) => {
    waiting.push(item);
    wake?.();
  };
  worker.on('message', (page: AnswerPage | null) => arrive(page));
  worker.on('error', (error) => arrive(error));
  worker.on('exit', (code) => arrive(code === 0 ? null : new Error(`the verdict cache's reader exited with ${code}`)));
  try {
    for (let i = 0; i <= opts.ahead; i++) worker.postMessage(null);
    for (;;) {
      if (waiting.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const page = waiting.shift();
      if (page === undefined) continue;
      if (page === null) return;
      if (page instanceof Error) throw page;
      if (opts.stop?.aborted) return;
      yield page;
      worker.postMessage(page, transfers(page));
    }
  } finally {
    await worker.terminate();
  }
}

const transfers = (page: AnswerPage) =>
  [page.bytes, page.starts, page.hashes, page.codes, page.times].map((a) => a.buffer as ArrayBuffer);

/**
 * Rows a statement reads: its text is one string, which stays under V8's large-object size (128 KiB) at this many
 * lines. Larger, each lived until a full collection of the worker's heap: pages of 32,000 lines grew the process by
 * 130 MB.
 */
const STATEMENT_ROWS = 1_000;

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

/** The pages of a cache of `total` answers, read by a worker thread unless the cache is small (IN_WORKER_FROM). */
export function passPages(
  total: number,
  opts: Pick<PassOptions, 'path' | 'since' | 'stop'>,
): AsyncGenerator<AnswerPage> {
  const paged = { ...opts, size: PAGE, ahead: AHEAD };
  return total < IN_WORKER_FROM ? answerPagesHere(paged) : answerPages(paged);
}

/** The same pages read in this thread. */
async function* answerPagesHere(opts: PassOptions): AsyncGenerator<AnswerPage> {
  const reader = pageReader(hashBytes, parseLines, ANSWER_FIELDS, STATEMENT_ROWS, opts);
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

/**
 * The worker's code, run from its text (a single executable has no file to start a worker from): it must use nothing
 * from outside itself but what it is given. Each message asks for a page, in the arrays of a page it gives back (or
 * new ones, for null); null answers that there is no more.
 */
function readPages(
  reader: typeof pageReader,
  hash: Hash,
  parse: typeof parseLines,
  fields: string,
  rows: number,
): void {
  const threads = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
  const port = threads.parentPort as import('node:worker_threads').MessagePort;
  const pages = reader(hash, parse, fields, rows, threads.workerData as Pick<PassOptions, 'path' | 'since' | 'size'>);
  port.on('message', (given: AnswerPage | null) => {
    const page = pages.next(given);
    if (page === null) return port.postMessage(null);
    port.postMessage(
      page,
      [page.bytes, page.starts, page.hashes, page.codes, page.times].map((a) => a.buffer as ArrayBuffer),
    );
  });
}

/**
 * Pages of answers from the cache's file, each read into the arrays of the page given back (or new ones, for null);
 * null once there are no more, and the file is then closed. Run in the worker too (see readPages): it uses nothing
 * from outside itself but what it is given.
 */
function pageReader(
  hash: Hash,
  parse: typeof parseLines,
  fields: string,
  rows: number,
  { path, since, size }: Pick<PassOptions, 'path' | 'since' | 'size'>,
): { next(given: AnswerPage | null): AnswerPage | null; close(): void } {
  // node:sqlite's ExperimentalWarning, said on loading it, is not for the user (see sqlite-driver.ts).
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  process.emitWarning = emitWarning;
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 60000');
  const statement = db.prepare(
    `SELECT group_concat(key || char(9) || at || char(9) || ${fields}, char(10)) AS lines, max(key) AS last, count(*) AS n FROM (SELECT key, status, flags, reason, at FROM verdicts WHERE key > ? AND at >= ? ORDER BY key LIMIT ?)`,
  );
  const codes: Codes = { byHash: new Map(), count: 0 };
  let text = Buffer.alloc(1 << 16);
  let after = '';
  let ended = false;
  let open = true;
  const close = () => {
    ended = true;
    if (open) db.close();
    open = false;
  };
  const next = (given: AnswerPage | null): AnswerPage | null => {
    if (ended) {
      close();
      return null;
    }
    const page: AnswerPage = given ?? {
      count: 0,
      bytes: new Uint8Array(size * 48),
      starts: new Int32Array(size + 1),
      hashes: new Uint32Array(size),
      codes: new Uint32Array(size),
      times: new Float64Array(size),
      newCodes: [],
    };
    page.count = 0;
    page.newCodes = [];
    while (page.count < size && !ended) {
      const limit = Math.min(rows, size - page.count);
      const read = statement.get(after, since, limit) as { lines: string | null; last: string; n: number } | undefined;
      if (!read?.lines) break;
      ended = read.n < limit;
      after = read.last;
      if (text.length < read.lines.length * 3) text = Buffer.allocUnsafeSlow(read.lines.length * 3);
      parse(text, text.write(read.lines, 0, 'utf8'), page, codes, hash);
    }
    if (page.count === 0) {
      close();
      return null;
    }
    return page;
  };
  return { next, close };
}

type Hash = (bytes: Uint8Array, length: number, start?: number) => number;
/** The worker's answer codes (from 0, `count` so far): by the hash of their text, each with its text's bytes. */
interface Codes {
  byHash: Map<number, Array<[Uint8Array, number]>>;
  count: number;
}

/**
 * The lines of a statement's text (`end` bytes of `text`, each `key TAB at TAB answer`) added to `page`, a byte at a
 * time: a string for each line and each of its fields cost the worker more than SQLite's reading (2.5 s against 2.3 s
 * a million answers). Run in the worker (see readPages): it uses nothing from outside itself.
 */
function parseLines(text: Uint8Array, end: number, page: AnswerPage, codes: Codes, hash: Hash): void {
  const { starts } = page;
  let count = page.count;
  if (page.bytes.length < (starts[count] as number) + end) {
    const larger = new Uint8Array(2 * page.bytes.length + end);
    larger.set(page.bytes);
    page.bytes = larger;
  }
  const bytes = page.bytes;
  for (let i = 0; i < end; i++) {
    const keyStart = starts[count] as number;
    let to = keyStart;
    for (; i < end && text[i] !== 9; i++) bytes[to++] = text[i] as number;
    starts[count + 1] = to;
    page.hashes[count] = hash(bytes, to - keyStart, keyStart);
    const timeStart = ++i;
    let time = 0;
    let digits = true;
    for (let c = text[i] as number; i < end && c !== 9; c = text[++i] as number) {
      time = time * 10 + c - 48;
      digits &&= c >= 48 && c <= 57;
    }
    // Digits, as SQLite writes an integer; anything else (a time stored as a real) is read as a number's text.
    if (!digits) time = Number(Buffer.from(text.subarray(timeStart, i)).toString('latin1'));
    page.times[count] = time;
    const answerStart = ++i;
    let answerHash = 0x811c9dc5;
    for (; i < end && text[i] !== 10; i++) answerHash = Math.imul(answerHash ^ (text[i] as number), 0x01000193);
    let code = -1;
    for (const [said, known] of codes.byHash.get(answerHash) ?? []) {
      let j = 0;
      while (j < said.length && said[j] === text[answerStart + j]) j++;
      if (j === said.length && j === i - answerStart) code = known;
    }
    if (code === -1) {
      const answer = text.slice(answerStart, i);
      code = codes.count++;
      codes.byHash.set(answerHash, [...(codes.byHash.get(answerHash) ?? []), [answer, code]]);
      page.newCodes.push([code, Buffer.from(answer).toString('utf8')]);
    }
    page.codes[count++] = code;
  }
  page.count = count;
}
