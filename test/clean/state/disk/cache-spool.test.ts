// The early read's file (cache-spool.ts), run in this thread: every answer read into a real file by when it was given,
// in buckets of pieces, told, and read back as it was; and what happens when the file stops taking them.
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerPage, emptyPage } from '../../../../src/clean/state/disk/cache-pages.js';
import {
  bucketWriter,
  pageFile,
  piecesByBucket,
  type Spooled,
  spoolByTime,
} from '../../../../src/clean/state/disk/cache-spool.js';

const SIZE = 4;
const LAYOUT = { most: 4, piece: 3 };
const T0 = 1_700_000_000_000;

/** An answer as the test knows it: its address, hash, code and time. */
interface Answer {
  key: string;
  hash: number;
  code: number;
  time: number;
}

/**
 * `total` pages of SIZE answers in address order (as the cache reads them); answer n's time is `timeOf(n)`. Each page
 * tells its own code first.
 */
function source(total: number, timeOf: (n: number) => number) {
  let read = 0;
  let closed = false;
  return {
    get read() {
      return read;
    },
    get closed() {
      return closed;
    },
    close() {
      closed = true;
    },
    next(given: AnswerPage | null): AnswerPage | null {
      if (read === total) return null;
      const p = read++;
      const page = given ?? emptyPage(SIZE);
      const text = Buffer.from(Array.from({ length: SIZE }, (_, i) => `p${p}a${i}@example.com`).join(''));
      page.bytes.set(text);
      for (let i = 0; i < SIZE; i++) {
        page.starts[i + 1] = (text.length / SIZE) * (i + 1);
        page.hashes[i] = p * 100 + i;
        page.codes[i] = p;
        page.times[i] = timeOf(p * SIZE + i);
      }
      page.count = SIZE;
      page.newCodes = [[p, `answer ${p}`]];
      return page;
    },
  };
}

function answersOf(page: AnswerPage): Answer[] {
  return Array.from({ length: page.count }, (_, i) => ({
    key: Buffer.from(page.bytes.subarray(page.starts[i], page.starts[i + 1])).toString(),
    hash: page.hashes[i] as number,
    code: page.codes[i] as number,
    time: page.times[i] as number,
  }));
}

describe("the early read's file", () => {
  let dir: string;
  let fd: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-spool-'));
    fd = openSync(join(dir, 'answers.spool'), 'wx+', 0o600);
  });
  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Spools `pages` into `file`: what was told, and each bucket read back from the file, its pieces in order. */
  function spoolAll(pages: ReturnType<typeof source>, file = pageFile(fd)) {
    const told: Spooled[] = [];
    spoolByTime(pages, file, LAYOUT, bucketWriter, emptyPage, (spooled) => told.push(spooled));
    const last = told.at(-1);
    const byBucket = last && last !== 'short' ? piecesByBucket(last.pieces) : [];
    const buckets = byBucket.map((pieces) =>
      pieces.flatMap((piece) => answersOf(pageFile(fd).append(piece, emptyPage(LAYOUT.piece)))),
    );
    return {
      told,
      pieces: byBucket.flat(),
      buckets: buckets.filter(Boolean),
      codes: last === 'short' ? [] : last?.codes,
    };
  }

  const everyAnswer = (total: number, timeOf: (n: number) => number) => {
    const pages = source(total, timeOf);
    return Array.from({ length: total }, () => answersOf(pages.next(null) as AnswerPage)).flat();
  };
  const byKey = (answers: Answer[]) => [...answers].sort((a, b) => (a.key < b.key ? -1 : 1));

  // Times unrelated to address order, as in most lists: 0, 7, 14, ... modulo 24.
  const scattered = (n: number) => T0 + ((n * 7) % 24);

  it('writes every answer into buckets by time, each bucket in address order, and tells every code before the end', () => {
    const pages = source(6, scattered);
    const { told, pieces, buckets, codes } = spoolAll(pages);
    // Told once, at the end: where every piece is, and every code.
    expect(told).toHaveLength(1);
    expect([pages.read, pages.closed]).toEqual([6, false]);
    // Every answer back, once, as it was; every code told.
    expect(byKey(buckets.flat())).toEqual(byKey(everyAnswer(6, scattered)));
    expect(codes).toEqual(Array.from({ length: 6 }, (_, p) => [p, `answer ${p}`]));
    // The buckets split the times: all of one bucket's come before the next's. Four, of about equal size.
    expect(buckets).toHaveLength(LAYOUT.most);
    for (let b = 1; b < buckets.length; b++)
      expect(Math.max(...(buckets[b - 1] as Answer[]).map((a) => a.time))).toBeLessThan(
        Math.min(...(buckets[b] as Answer[]).map((a) => a.time)),
      );
    for (const bucket of buckets) expect(bucket.length).toBeGreaterThanOrEqual(3);
    // A bucket's answers keep the order they were read in (address order), and no piece is longer than asked.
    for (const bucket of buckets) expect(bucket.map((a) => a.key)).toEqual(byKey(bucket).map((a) => a.key));
    expect(Math.max(...pieces.map((p) => p.count))).toBe(LAYOUT.piece);
  });

  it('puts a list whose times follow its addresses mostly in the last bucket, still in address order', () => {
    const inOrder = (n: number) => T0 + n;
    const { told, buckets } = spoolAll(source(6, inOrder));
    expect(told).toHaveLength(1);
    expect(buckets.flat()).toEqual(everyAnswer(6, inOrder));
    expect(buckets.at(-1)?.length).toBeGreaterThan(16);
  });

  it('stops at the piece the file did not take (a full disk), telling only that; the pages are closed', () => {
    const file = pageFile(fd);
    let writes = 0;
    const failing = {
      ...file,
      write(page: AnswerPage) {
        if (++writes > 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        return file.write(page);
      },
    };
    const pages = source(6, scattered);
    const { told } = spoolAll(pages, failing);
    expect(writes).toBe(3);
    expect(told).toEqual(['short']);
    expect(pages.closed).toBe(true);
  });
});
