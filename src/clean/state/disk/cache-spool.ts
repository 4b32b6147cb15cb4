// The early read's file (cache-pass.ts): while the run scans its list, the worker reads the whole cache into a file
// instead of memory, and ends; the run reads the answers back from the file. They go in by when they were given, in
// buckets of about equal size, not by address: the service answers a list in about its order, so a list run again
// (or a copy of it) finds a bucket's addresses close together among its own keys. In address order they lay all over
// them: matching each waited on memory, and a million-row copy's re-run took 2.51 s against 2.27 s by time (Node 22).
// spoolByTime runs in the worker from its text (see cache-pages.ts): it uses nothing from outside itself.
import type { AnswerPage, PageSource } from './cache-pages.js';

/** A piece of a bucket on the file, its answers in address order: where it starts, its answers, their bytes. */
export interface OnFile {
  bucket: number;
  at: number;
  count: number;
  used: number;
}

/**
 * What the worker tells the run once it has read every answer: its pieces on the file (bucket, at, count and used, in
 * turn, a piece after another) and every answer's code; or 'short', when the file took no more (a full disk), and the
 * cache is then read again from its start. Told once: the run reads nothing before the last piece is written.
 */
export type Spooled = { pieces: Float64Array; codes: AnswerPage['newCodes'] } | 'short';

/** The pieces a worker told, by bucket. */
export function piecesByBucket(told: Float64Array): OnFile[][] {
  const buckets: OnFile[][] = [];
  for (let i = 0; i + 3 < told.length; i += 4) {
    const [bucket, at, count, used] = [told[i], told[i + 1], told[i + 2], told[i + 3]] as number[];
    (buckets[bucket as number] ??= []).push({ bucket, at, count, used } as OnFile);
  }
  return buckets;
}

/**
 * How answers are grouped by time: into at most `most` buckets, told apart by the times of the first page's answers
 * (in address order, unrelated to time in most lists; where a list is sorted by address, most answers go to the last
 * bucket, read in address order, which is then about the list's); each bucket filled a `piece` at a time.
 */
export interface Buckets {
  most: number;
  piece: number;
}

/** Reads every page from `pages` into `file`, each answer into its time's bucket; tells `post` where they are. */
export function spoolByTime(
  pages: PageSource,
  file: ReturnType<typeof pageFile>,
  layout: Buckets,
  bucketed: typeof bucketWriter,
  empty: (size: number) => AnswerPage,
  post: (spooled: Spooled) => void,
): void {
  // The first page's times tell the buckets apart; its arrays are reused for every other page.
  let page = pages.next(null);
  if (page === null) {
    post({ pieces: new Float64Array(0), codes: [] });
    return;
  }
  const times = page.times.slice(0, page.count).sort();
  const bounds = new Float64Array(Math.max(0, Math.min(layout.most, times.length) - 1));
  for (let b = 0; b < bounds.length; b++)
    bounds[b] = times[Math.floor(((b + 1) * times.length) / (bounds.length + 1))] as number;
  const writer = bucketed(bounds, layout.piece, file, empty);
  let written = true;
  for (; page !== null && written; page = written ? pages.next(page) : null) written = writer.add(page);
  if (written && writer.flushAll()) {
    post(writer.told());
    return;
  }
  pages.close();
  post('short');
}

/**
 * Answers into buckets by time (bucket b: from bound b - 1, inclusive, to bound b), each bucket's piece written to
 * `file` when full. add and flushAll say false where a write was refused (a full disk): nothing more is written.
 */
export function bucketWriter(
  bounds: Float64Array,
  size: number,
  file: ReturnType<typeof pageFile>,
  empty: (size: number) => AnswerPage,
) {
  const pieces: AnswerPage[] = [];
  const codes: AnswerPage['newCodes'] = [];
  const written: number[] = [];
  const flush = (bucket: number): boolean => {
    const piece = pieces[bucket];
    if (!piece?.count) return true;
    try {
      const { at, count, used } = file.write(piece);
      written.push(bucket, at, count, used);
    } catch {
      return false;
    }
    piece.count = 0;
    return true;
  };
  // Nothing is made an answer (no view, no array): a million of them would be the worker's garbage.
  const add = (page: AnswerPage): boolean => {
    codes.push(...page.newCodes);
    for (let i = 0; i < page.count; i++) {
      const time = page.times[i] as number;
      let low = 0;
      let high = bounds.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((bounds[middle] as number) <= time) low = middle + 1;
        else high = middle;
      }
      const piece = (pieces[low] ??= empty(size));
      const from = page.starts[i] as number;
      const length = (page.starts[i + 1] as number) - from;
      const start = piece.starts[piece.count] as number;
      if (piece.bytes.length < start + length) {
        const larger = new Uint8Array(2 * (start + length));
        larger.set(piece.bytes);
        piece.bytes = larger;
      }
      for (let b = 0; b < length; b++) piece.bytes[start + b] = page.bytes[from + b] as number;
      piece.starts[piece.count + 1] = start + length;
      piece.hashes[piece.count] = page.hashes[i] as number;
      piece.codes[piece.count] = page.codes[i] as number;
      piece.times[piece.count] = time;
      if (++piece.count === size && !flush(low)) return false;
    }
    return true;
  };
  const flushAll = (): boolean => pieces.every((_, bucket) => flush(bucket));
  const told = (): Spooled => ({ pieces: Float64Array.from(written), codes });
  return { add, flushAll, told };
}

/**
 * Pieces written one after another to the file `fd` (opened and removed by the run's thread, and read by it); written
 * by the worker, from its text like spoolByTime.
 */
export function pageFile(fd: number) {
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  let end = 0;
  const bytesOf = (a: ArrayBufferView, from: number, n: number) => new Uint8Array(a.buffer, a.byteOffset + from, n);
  const views = (page: AnswerPage, first: number, count: number, byte: number, used: number) => [
    bytesOf(page.bytes, byte, used),
    bytesOf(page.starts, first * 4, (count + 1) * 4),
    bytesOf(page.hashes, first * 4, count * 4),
    bytesOf(page.codes, first * 4, count * 4),
    bytesOf(page.times, first * 8, count * 8),
  ];
  const write = (page: AnswerPage): Omit<OnFile, 'bucket'> => {
    const onFile = { at: end, count: page.count, used: page.starts[page.count] as number };
    let at = end;
    for (const view of views(page, 0, onFile.count, 0, onFile.used)) {
      for (let done = 0; done < view.length; ) done += fs.writeSync(fd, view, done, view.length - done, at + done);
      at += view.length;
    }
    end = at;
    return onFile;
  };
  /** The piece at `onFile` read into `page` after its answers (its arrays made for as many more, or more). */
  const append = (onFile: Omit<OnFile, 'bucket'>, page: AnswerPage): AnswerPage => {
    const [first, byte] = [page.count, page.starts[page.count] as number];
    if (page.bytes.length < byte + onFile.used) {
      const larger = new Uint8Array(2 * (byte + onFile.used));
      larger.set(page.bytes.subarray(0, byte));
      page.bytes = larger;
    }
    let at = onFile.at;
    for (const view of views(page, first, onFile.count, byte, onFile.used)) {
      for (let done = 0; done < view.length; ) {
        const n = fs.readSync(fd, view, done, view.length - done, at + done);
        if (n === 0) throw new Error(`the cache's spooled pieces ended at ${at + done}`);
        done += n;
      }
      at += view.length;
    }
    // The piece's offsets begin at 0: after this page's bytes.
    for (let i = first; i <= first + onFile.count; i++) page.starts[i] = (page.starts[i] as number) + byte;
    page.count += onFile.count;
    return page;
  };
  return { write, append };
}
