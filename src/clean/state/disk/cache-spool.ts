// The early read's pages (cache-pass.ts) while the run scans its list: the worker reads on, writing each page to a
// file instead of holding it, and gives them from the file once the run asks. Run in the worker from its text (see
// cache-pages.ts): it uses nothing from outside itself but what it is given.
import type { AnswerPage } from './cache-pages.js';

/** A page on the file: where it starts, its answers, the bytes of their addresses, and the codes it told first. */
interface OnFile {
  at: number;
  count: number;
  used: number;
  newCodes: AnswerPage['newCodes'];
}

/**
 * Serves the asks that come on `port` (a page given back, or null) from `pages`, reading ahead into `file` between
 * them. A page the file cannot take (a full disk) is held, and the read goes on at the pace the run asks.
 */
export function spoolPages(
  pages: { next(given: AnswerPage | null): AnswerPage | null },
  file: ReturnType<typeof pageFile>,
  port: import('node:worker_threads').MessagePort,
  post: (page: AnswerPage | null) => void,
): void {
  const asked: Array<AnswerPage | null> = [];
  const kept: Array<OnFile | AnswerPage> = [];
  let spooling = true;
  let ended = false;
  let scratch: AnswerPage | null = null;
  let due = false;
  const step = () => {
    due = false;
    if (asked.length > 0) {
      const given = asked.shift() as AnswerPage | null;
      const next = kept.shift();
      if (next === undefined) {
        const page = ended ? null : pages.next(given);
        ended ||= page === null;
        post(page);
      } else post('bytes' in next ? next : file.read(next, given));
    } else if (spooling && !ended) {
      const page = pages.next(scratch);
      if (page === null) ended = true;
      else {
        try {
          kept.push(file.write(page));
          scratch = page;
        } catch {
          // Held as it is; the rest is read as the run asks for it.
          spooling = false;
          kept.push(page);
        }
      }
    } else return;
    schedule();
  };
  const schedule = () => {
    if (due) return;
    due = true;
    setImmediate(step);
  };
  port.on('message', (given: AnswerPage | null) => {
    asked.push(given);
    schedule();
  });
  schedule();
}

/** Pages of `size` answers written one after another to the file `fd` (opened and removed by the run's thread). */
export function pageFile(fd: number, size: number) {
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
  /** The page at `onFile`, read into the arrays of `given` (new ones for null). */
  const read = (onFile: OnFile, given: AnswerPage | null): AnswerPage => {
    const page = given ?? {
      count: 0,
      bytes: new Uint8Array(size * 48),
      starts: new Int32Array(size + 1),
      hashes: new Uint32Array(size),
      codes: new Uint32Array(size),
      times: new Float64Array(size),
      newCodes: [],
    };
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
