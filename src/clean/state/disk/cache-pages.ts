// The pages of the verdict cache's answers, as its pass reads them (cache-pass.ts): the code that reads them, run in a
// worker thread from its text or in the run's own thread. SQLite writes a page of rows as one string; it is split here
// a byte at a time into typed arrays, which go to the run's thread transferred, not copied.
import { hashBytes } from '../../scan/spill/hash-bytes.js';
import { type Buckets, bucketWriter, pageFile, spoolByTime } from './cache-spool.js';

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

/**
 * A page's arrays for `size` answers, none in it yet (the addresses' bytes grow as a page needs). Run in the worker
 * too (see readPages): it uses nothing from outside itself.
 */
export function emptyPage(size: number): AnswerPage {
  return {
    count: 0,
    bytes: new Uint8Array(size * 48),
    starts: new Int32Array(size + 1),
    hashes: new Uint32Array(size),
    codes: new Uint32Array(size),
    times: new Float64Array(size),
    newCodes: [],
  };
}

/** What a page is read from: the cache's file, the answers given since `since`, `size` of them a page. */
export interface PageQuery {
  path: string;
  since: number;
  size: number;
  /** The key the pages begin after (none: from the first). */
  after?: string;
}

/** What a worker is told: its pages, and the file it reads them all into, if any (cache-spool.ts). */
export interface WorkerQuery extends PageQuery {
  spoolFd?: number;
}

/**
 * An answer's fields after its key and time, tab-separated (concat_ws: one string a row, where each `||` made one
 * more): its flags, status and reason (hex: any text).
 */
export const ANSWER_FIELDS = 'flags, hex(status), hex(reason)';

/**
 * Rows a statement reads: its text is one string, which stays under V8's large-object size (128 KiB) at this many
 * lines. Larger, each lived until a full collection of the worker's heap: pages of 32,000 lines grew the process by
 * 130 MB.
 */
const STATEMENT_ROWS = 1_000;

/**
 * How the early read's file groups answers by time (cache-spool.ts). 64 buckets: a million answers' bucket is about
 * 16,000, a megabyte of a list's keys. A piece of 1,024 answers is about 70 KB, so pieces take 4.5 MB at most.
 */
export const BUCKETS: Buckets = { most: 64, piece: 1_024 };

export const transfers = (page: AnswerPage) =>
  [page.bytes, page.starts, page.hashes, page.codes, page.times].map((a) => a.buffer as ArrayBuffer);

/** The worker's code, as the text a worker runs (see readPages). */
export const workerSource = (): string =>
  `(${readPages})(${pageReader}, ${hashBytes}, ${parseLines}, ${emptyPage}, ${JSON.stringify(ANSWER_FIELDS)}, ${STATEMENT_ROWS}, ${spoolByTime}, ${pageFile}, ${bucketWriter}, ${JSON.stringify(BUCKETS)})`;

/** Pages read in this thread, by the worker's code. */
export const pagesHere = (query: PageQuery) =>
  pageReader(hashBytes, parseLines, emptyPage, ANSWER_FIELDS, STATEMENT_ROWS, query);

/**
 * The worker's code, run from its text (a single executable has no file to start a worker from): it must use nothing
 * from outside itself but what it is given. Each message asks for a page, in the arrays of a page it gives back (or
 * new ones, for null); null answers that there is no more. Given a file, it reads every page into it, asked nothing.
 */
function readPages(
  reader: typeof pageReader,
  hash: Hash,
  parse: typeof parseLines,
  empty: typeof emptyPage,
  fields: string,
  rows: number,
  spool: typeof spoolByTime,
  file: typeof pageFile,
  bucketed: typeof bucketWriter,
  buckets: Buckets,
): void {
  const threads = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
  const port = threads.parentPort as import('node:worker_threads').MessagePort;
  const { spoolFd, ...query } = threads.workerData as WorkerQuery;
  const pages = reader(hash, parse, empty, fields, rows, query);
  const post = (page: AnswerPage | null) => {
    if (page === null) return port.postMessage(null);
    port.postMessage(
      page,
      [page.bytes, page.starts, page.hashes, page.codes, page.times].map((a) => a.buffer as ArrayBuffer),
    );
  };
  if (spoolFd !== undefined) {
    spool(pages, file(spoolFd), buckets, bucketed, empty, (spooled) => port.postMessage(spooled));
  } else port.on('message', (given: AnswerPage | null) => post(pages.next(given)));
}

/**
 * Pages of answers from the cache's file, each read into the arrays of the page given back (or new ones, for null);
 * null once there are no more, and the file is then closed. Run in the worker too (see readPages): it uses nothing
 * from outside itself but what it is given. SQLite's cache is 256 KB, not 2 MB: a pass reads each page of the file
 * once, in order.
 */
function pageReader(
  hash: Hash,
  parse: typeof parseLines,
  empty: typeof emptyPage,
  fields: string,
  rows: number,
  { path, since, size, after: from }: PageQuery,
): PageSource {
  // node:sqlite's ExperimentalWarning, said on loading it, is not for the user (see sqlite-driver.ts).
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  process.emitWarning = emitWarning;
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 60000; PRAGMA cache_size = -256');
  const statement = db.prepare(
    `SELECT group_concat(concat_ws(char(9), key, at, ${fields}), char(10)) AS lines, max(key) AS last, count(*) AS n FROM (SELECT key, status, flags, reason, at FROM verdicts WHERE key > ? AND at >= ? ORDER BY key LIMIT ?)`,
  );
  const codes: Codes = { byHash: new Map(), count: 0 };
  let text = Buffer.alloc(1 << 16);
  let after = from ?? '';
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
    const page = given ?? empty(size);
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

/** Pages one after another, each read into the arrays of the one given back (or new ones, for null). */
export interface PageSource {
  next(given: AnswerPage | null): AnswerPage | null;
  close(): void;
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
