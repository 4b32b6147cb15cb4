import { Paged } from './paged.js';

/** One bit a row: whether its trimmed cell is its key as it stands, so the write pass need not decide it again. */
export class PlainRows {
  private readonly words = new Paged(Uint32Array);
  private count = 0;

  push(plain: boolean): void {
    const word = this.count >>> 5;
    if (plain) this.words.set(word, (this.words.get(word) | (1 << (this.count & 31))) >>> 0);
    this.count++;
  }

  /** A reader of the bits from the first row on, one call a row. */
  reader(): () => boolean {
    let row = 0;
    return () => {
      if (row >= this.count) throw new Error('more rows than the scan saw');
      const bit = (this.words.get(row >>> 5) >>> (row & 31)) & 1;
      row++;
      return bit === 1;
    };
  }
}
