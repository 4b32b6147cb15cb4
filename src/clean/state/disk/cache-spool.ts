// The early read's file (cache-pass.ts): while the run scans its list, the worker reads the whole cache into a file
// instead of memory, and ends; the run reads the answers back from the file. They go in by when they were given, in
// buckets of about equal size, not by address: the service answers a list in about its order, so a list run again
// (or a copy of it) finds a bucket's addresses close together among its own keys. In address order they lay all over
// them: matching each waited on memory, and a million-row copy's re-run took 2.51 s against 2.27 s by time (Node 22).
// spoolByTime runs in the worker from its text (see cache-pages.ts): it uses nothing from outside itself.
import type { AnswerPage, PageSource } from './cache-pages.js';

/**
 * A piece of a bucket on the file, its answers in address order: where it starts, its answers, the bytes of their
 * addresses, and the codes told since the last piece (every code is told before the run reads any piece).
 */
export interface OnFile {
  bucket: number;
  at: number;
  count: number;
  used: number;
  newCodes: AnswerPage['newCodes'];
}

/**
 * What the worker tells the run as it reads ahead: each piece written to the file; null once every piece is; 'short'
 * when the file took no more (a full disk), and the cache is then read again from its start.
 */
export type Spooled = OnFile | null | 'short';

/**
 * How answers are grouped by time: into at most `most` buckets, told apart by the times of the first `sample` answers
 * read (in address order, unrelated to time in most lists; where a list is sorted by address, most answers go to the
 * last bucket, read in address order, which is then about the list's); each bucket filled a `piece` at a time.
 */
export interface Buckets {
  most: number;
  sample: number;
  piece: number;
}

/** Reads every page from `pages` into `file`, each answer into its time's bucket; tells `post` of each piece. */
export function spoolByTime(
  pages: PageSource,
  file: ReturnType<typeof pageFile>,
  layout: Buckets,
  bucketed: typeof bucketWriter,
  empty: (size: number) => AnswerPage,
  post: (spooled: Spooled) => void,
): void {
  // The first pages are held (new arrays each) until they tell the buckets apart; the others reuse one page's.
  const held: AnswerPage[] = [];
  let page: AnswerPage | null = null;
  for (let count = 0; count < layout.sample && (page = pages.next(null)) !== null; count += page.count) held.push(page);
  const times = new Float64Array(held.reduce((sum, p) => sum + p.count, 0));
  for (let [h, at] = [0, 0]; h < held.length; at += (held[h] as AnswerPage).count, h++)
    times.set((held[h] as AnswerPage).times.subarray(0, (held[h] as AnswerPage).count), at);
  times.sort();
  const bounds = new Float64Array(Math.max(0, Math.min(layout.most, times.length) - 1));
  for (let b = 0; b < bounds.length; b++)
    bounds[b] = times[Math.floor(((b + 1) * times.length) / (bounds.length + 1))] as number;
  const writer = bucketed(bounds, layout.piece, file, empty, post);
  for (const each of held) if (!writer.add(each)) return pages.close();
  page = held.at(-1) ?? null;
  while (page !== null && (page = pages.next(page)) !== null) if (!writer.add(page)) return pages.close();
  if (writer.flushAll()) post(null);
  else pages.close();
}

/**
 * Answers into buckets by time (bucket b: from bound b - 1, inclusive, to bound b), each bucket's piece written to
 * `file` when full, and told. A write refused (a full disk) is told as 'short', and nothing more is written.
 */
export function bucketWriter(
  bounds: Float64Array,
  size: number,
  file: ReturnType<typeof pageFile>,
  empty: (size: number) => AnswerPage,
  post: (spooled: Spooled) => void,
) {
  const pieces: AnswerPage[] = [];
  let codes: AnswerPage['newCodes'] = [];
  const flush = (bucket: number): boolean => {
    const piece = pieces[bucket];
    if (!piece?.count) return true;
    try {
      post({ ...file.write(piece), bucket, newCodes: codes });
    } catch {
      post('short');
      return false;
    }
    [codes, piece.count] = [[], 0];
    return true;
  };
  const add = (page: AnswerPage): boolean => {
    codes.push(...page.newCodes);
    for (let i = 0; i < page.count; i++) {
      const time = page.times[i] as number;
      let [low, high] = [0, bounds.length];
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((bounds[middle] as number) <= time) low = middle + 1;
        else high = middle;
      }
      const piece = (pieces[low] ??= empty(size));
      const [from, to, start] = [
        page.starts[i] as number,
        page.starts[i + 1] as number,
        piece.starts[piece.count] as number,
      ];
      if (piece.bytes.length < start + to - from) {
        const larger = new Uint8Array(2 * (start + to - from));
        larger.set(piece.bytes);
        piece.bytes = larger;
      }
      piece.bytes.set(page.bytes.subarray(from, to), start);
      piece.starts[piece.count + 1] = start + to - from;
      piece.hashes[piece.count] = page.hashes[i] as number;
      piece.codes[piece.count] = page.codes[i] as number;
      piece.times[piece.count] = time;
      if (++piece.count === size && !flush(low)) return false;
    }
    return true;
  };
  const flushAll = (): boolean => pieces.every((_, bucket) => flush(bucket));
  return { add, flushAll };
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
  const write = (page: AnswerPage): Omit<OnFile, 'bucket' | 'newCodes'> => {
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
  const append = (onFile: Omit<OnFile, 'bucket' | 'newCodes'>, page: AnswerPage): AnswerPage => {
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
