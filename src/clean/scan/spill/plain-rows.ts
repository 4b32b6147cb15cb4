import { Paged } from './paged.js';

/**
 * One bit a row, in row order: whether the row's cell, trimmed, is its address's key as it stands (the plain
 * address nearly every row holds). The write pass then takes the key from the cell without deciding the cell's
 * syntax again; any other row (blank, malformed, wrapped, a domain in capitals) goes through the prefilter again.
 * 1.25 MB at ten million rows.
 */
export class PlainRows {
  private readonly words = new Paged('u32');
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
