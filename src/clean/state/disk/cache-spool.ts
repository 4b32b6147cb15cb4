// The early read's pages (cache-pass.ts): while the run scans its list, the worker reads the whole cache into a file
// instead of memory, and ends; the run reads the pages from the file. spoolPages runs in the worker from its text
// (see cache-pages.ts): it uses nothing from outside itself but what it is given.
import type { AnswerPage } from './cache-pages.js';

/** A page on the file: where it starts, its answers, the bytes of their addresses, and the codes it told first. */
export interface OnFile {
  at: number;
  count: number;
  used: number;
  newCodes: AnswerPage['newCodes'];
}

/**
 * What the worker tells the run as it reads ahead: each page written to the file; null once every page is; or, when
 * the file took no more (a full disk), the key the pages on it end with, for a reader that goes on from there.
 */
export type Spooled = OnFile | null | { after: string };

/** Reads every page from `pages` into `file`, telling `post` of each (see Spooled). */
export function spoolPages(
  pages: { next(given: AnswerPage | null): AnswerPage | null; close(): void },
  file: ReturnType<typeof pageFile>,
  post: (spooled: Spooled) => void,
): void {
  let page: AnswerPage | null = null;
  let after = '';
  while ((page = pages.next(page)) !== null) {
    try {
      post(file.write(page));
    } catch {
      pages.close();
      post({ after });
      return;
    }
    const starts = page.starts;
    after = Buffer.from(page.bytes.subarray(starts[page.count - 1], starts[page.count])).toString('utf8');
  }
  post(null);
}

/**
 * Pages written one after another to the file `fd` (opened and removed by the run's thread, and read by it); written
 * by the worker, from its text like spoolPages.
 */
export function pageFile(fd: number) {
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  let end = 0;
  const bytesOf = (a: ArrayBufferView, n: number) => new Uint8Array(a.buffer, a.byteOffset, n);
  const views = (page: AnswerPage, count: number, used: number) => [
    bytesOf(page.bytes, used),
    bytesOf(page.starts, (count + 1) * 4),
    bytesOf(page.hashes, count * 4),
    bytesOf(page.codes, count * 4),
    bytesOf(page.times, count * 8),
  ];
  const write = (page: AnswerPage): OnFile => {
    const onFile = { at: end, count: page.count, used: page.starts[page.count] as number, newCodes: page.newCodes };
    let at = end;
    for (const view of views(page, onFile.count, onFile.used)) {
      for (let done = 0; done < view.length; ) done += fs.writeSync(fd, view, done, view.length - done, at + done);
      at += view.length;
    }
    end = at;
    return onFile;
  };
  /** The page at `onFile`, read into the arrays of `page` (made for as many answers a page, or more). */
  const read = (onFile: OnFile, page: AnswerPage): AnswerPage => {
    if (page.bytes.length < onFile.used) page.bytes = new Uint8Array(onFile.used);
    let at = onFile.at;
    for (const view of views(page, onFile.count, onFile.used)) {
      for (let done = 0; done < view.length; ) {
        const n = fs.readSync(fd, view, done, view.length - done, at + done);
        if (n === 0) throw new Error(`the cache's spooled pages ended at ${at + done}`);
        done += n;
      }
      at += view.length;
    }
    page.count = onFile.count;
    page.newCodes = onFile.newCodes;
    return page;
  };
  return { write, read };
}
