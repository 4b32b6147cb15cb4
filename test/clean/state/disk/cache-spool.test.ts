// The early read's file (cache-spool.ts), run in this thread: pages read ahead into a real file between asks, given
// back from it in the order read, and what happens when the file stops taking them.
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerPage } from '../../../../src/clean/state/disk/cache-pages.js';
import { pageFile, spoolPages } from '../../../../src/clean/state/disk/cache-spool.js';

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
      const page = given ?? {
        count: 0,
        bytes: new Uint8Array(SIZE * 48),
        starts: new Int32Array(SIZE + 1),
        hashes: new Uint32Array(SIZE),
        codes: new Uint32Array(SIZE),
        times: new Float64Array(SIZE),
        newCodes: [],
      };
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

  /**
   * Reads `total` pages through spoolPages, asking for one only after `before` turns of the event loop (the run
   * scanning its list meanwhile); `file` may fail. Returns what each page said, in the order given, and how many the
   * source had read when the first was asked for.
   */
  async function readAll(total: number, file: ReturnType<typeof pageFile>, before: number) {
    const pages = source(total);
    const { port1, port2 } = new MessageChannel();
    const arrived: Array<AnswerPage | null> = [];
    let wake: (() => void) | undefined;
    port1.on('message', (page: AnswerPage | null) => {
      arrived.push(page);
      wake?.();
    });
    spoolPages(pages, file, port2, (page) => port2.postMessage(page));
    for (let i = 0; i < before; i++) await new Promise((resolve) => setImmediate(resolve));
    const readAhead = pages.read;
    const got: Array<ReturnType<typeof said>> = [];
    let given: AnswerPage | null = null;
    for (;;) {
      port1.postMessage(given);
      if (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const page = arrived.shift() as AnswerPage | null;
      if (page === null) break;
      got.push(said(page));
      given = page;
    }
    port1.close();
    return { got, readAhead };
  }

  const expected = (total: number) => {
    const pages = source(total);
    return Array.from({ length: total }, () => said(pages.next(null) as AnswerPage));
  };

  it('reads ahead into the file while nothing asks, then gives every page from it in the order read', async () => {
    const { got, readAhead } = await readAll(7, pageFile(fd, SIZE), 50);
    expect(readAhead).toBe(7);
    expect(got).toEqual(expected(7));
  });

  it('asked before it read ahead, gives the pages as it reads them', async () => {
    const { got, readAhead } = await readAll(5, pageFile(fd, SIZE), 0);
    expect(readAhead).toBe(0);
    expect(got).toEqual(expected(5));
  });

  it('holds the page the file did not take (a full disk), stops reading ahead, and gives the rest as asked', async () => {
    const file = pageFile(fd, SIZE);
    let writes = 0;
    const failing = {
      ...file,
      write(page: AnswerPage) {
        if (++writes > 2) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        return file.write(page);
      },
    };
    const { got, readAhead } = await readAll(6, failing, 50);
    // Two pages on the file, the third held: nothing more is read before the run asks.
    expect(readAhead).toBe(3);
    expect(got).toEqual(expected(6));
  });
});
