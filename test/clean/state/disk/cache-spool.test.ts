// The early read's file (cache-spool.ts), run in this thread: every page read into a real file and told, read back
// as it was, and what happens when the file stops taking them.
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AnswerPage, emptyPage } from '../../../../src/clean/state/disk/cache-pages.js';
import { type OnFile, pageFile, type Spooled, spoolPages } from '../../../../src/clean/state/disk/cache-spool.js';

const SIZE = 4;

/** Page `n` of `total`: SIZE answers whose addresses, codes and times say which page and place they are. */
function source(total: number) {
  let read = 0;
  return {
    get read() {
      return read;
    },
    next(given: AnswerPage | null): AnswerPage | null {
      if (read === total) return null;
      const n = read++;
      const page = given ?? emptyPage(SIZE);
      const text = Buffer.from(Array.from({ length: SIZE }, (_, i) => `p${n}a${i}@example.com`).join(''));
      page.bytes.set(text);
      for (let i = 0; i < SIZE; i++) {
        page.starts[i + 1] = (text.length / SIZE) * (i + 1);
        page.hashes[i] = n * 100 + i;
        page.codes[i] = n;
        page.times[i] = 1_700_000_000_000 + n;
      }
      page.count = SIZE;
      page.newCodes = [[n, `answer ${n}`]];
      return page;
    },
  };
}

/** What a page says: its addresses, hashes, codes, times and new codes. */
function said(page: AnswerPage) {
  const text = Buffer.from(page.bytes.buffer, page.bytes.byteOffset, page.starts[page.count]).toString();
  return {
    text,
    hashes: [...page.hashes.subarray(0, page.count)],
    codes: [...page.codes.subarray(0, page.count)],
    times: [...page.times.subarray(0, page.count)],
    newCodes: page.newCodes,
  };
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

  /** Reads `total` pages through spoolPages into `file`: what it told, and each page read back from the file. */
  function spoolAll(total: number, file: ReturnType<typeof pageFile>) {
    const pages = source(total);
    let closed = false;
    const told: Spooled[] = [];
    spoolPages({ next: (given) => pages.next(given), close: () => (closed = true) }, file, (spooled) =>
      told.push(spooled),
    );
    const reader = pageFile(fd);
    let page = emptyPage(SIZE);
    const got = told
      .filter((t): t is OnFile => t !== null && 'at' in t)
      .map((onFile) => said((page = reader.read(onFile, page))));
    return { told, got, read: pages.read, closed };
  }

  const expected = (total: number) => {
    const pages = source(total);
    return Array.from({ length: total }, () => said(pages.next(null) as AnswerPage));
  };

  it('reads every page into the file, telling each, then that it has read them all; they read back as they were', () => {
    const { told, got, read } = spoolAll(7, pageFile(fd));
    expect(read).toBe(7);
    expect(told.at(-1)).toBeNull();
    expect(told).toHaveLength(8);
    expect(got).toEqual(expected(7));
  });

  it('stops at the page the file did not take (a full disk), telling the key the pages on it end with', () => {
    const file = pageFile(fd);
    let writes = 0;
    const failing = {
      ...file,
      write(page: AnswerPage) {
        if (++writes > 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        return file.write(page);
      },
    };
    const { told, got, read, closed } = spoolAll(6, failing);
    // Two pages on the file; the third read, refused, and the reading closed: a reader goes on after page 1's last.
    expect([read, closed]).toEqual([3, true]);
    expect(got).toEqual(expected(2));
    expect(told.at(-1)).toEqual({ after: 'p1a3@example.com' });
  });
});
