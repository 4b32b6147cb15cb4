import { ByteLog, CHUNK_BYTES } from './byte-log.js';

/** Ordinals are written to the log a page at a time; a chunk holds a whole number of pages. */
const PAGE_INTS = CHUNK_BYTES / 16;

/** Each row's key ordinal, so the write pass finds a row's verdict without hashing its address again. */
export class RowOrdinals {
  private page = new Int32Array(PAGE_INTS);
  private filled = 0;
  private readonly log: ByteLog;

  constructor(opts: { budget: number; spoolDir: string }) {
    this.log = new ByteLog({ budget: opts.budget, spoolDir: opts.spoolDir, name: 'rows' });
  }

  push(ordinal: number): void {
    this.page[this.filled++] = ordinal;
    if (this.filled === PAGE_INTS) {
      const { chunk, at } = this.log.reserve(PAGE_INTS * 4);
      Buffer.from(this.page.buffer).copy(chunk, at);
      this.log.commit(PAGE_INTS * 4);
      this.filled = 0;
    }
  }

  /** A reader of the ordinals from the first, one call per row. */
  reader(): () => number {
    const pages = this.pagesInOrder();
    let current: Int32Array = new Int32Array(0);
    let next = 0;
    return () => {
      while (next === current.length) {
        const page = pages.next();
        if (page.done) throw new Error('more rows with an address than the scan saw');
        current = page.value;
        next = 0;
      }
      return current[next++] as number;
    };
  }

  close(): void {
    this.log.close();
  }

  private *pagesInOrder(): Generator<Int32Array> {
    for (const chunk of this.log.chunksInOrder()) {
      // Chunks are allocated alone (never from Buffer's shared pool), so their bytes start 4-aligned.
      yield new Int32Array(chunk.buffer, chunk.byteOffset, chunk.length / 4);
    }
    yield this.page.subarray(0, this.filled);
  }
}
