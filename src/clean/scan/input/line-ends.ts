// A record's end and email field found by indexOf, for a list whose rows all have the header's field count.
import type { InputLayout, InputRecord } from './index.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;
/** Longer records go to csv-parse, which knows the limit and how to report it. */
export const LONGEST_RECORD = 64 * 1024;

export interface LineEndRecord {
  /** Where the next record starts (after the terminator); -1: this record is not one to find so. */
  next: number;
  contentEnd: number;
  eol: InputRecord['eol'];
  newlines: number;
  cell: string;
}

export class LineEnds {
  private quoteAt = -1;
  private crAt = -1;
  private readonly delimiter: number;
  private readonly column: number;
  private readonly columnCount: number;
  private readonly found: LineEndRecord = { next: -1, contentEnd: 0, eol: '', newlines: 0, cell: '' };

  constructor(layout: InputLayout) {
    this.delimiter = layout.delimiter.charCodeAt(0);
    this.column = layout.emailColumn;
    this.columnCount = layout.columnCount;
  }

  newBytes(): void {
    this.quoteAt = -1;
    this.crAt = -1;
  }

  /** The record at `start` and its unquoted email field; `next` is -1 for any other. The object is reused. */
  record(buf: Buffer, start: number): LineEndRecord {
    const found = this.found;
    found.next = -1;
    found.newlines = 0;
    let lf = buf.indexOf(LF, start);
    if (lf < 0) return found;
    if (this.quoteAt < start) this.quoteAt = nextIndex(buf, QUOTE, start);
    if (this.quoteAt < lf) {
      if (!this.emailField(buf, start, this.quoteAt, true)) return found;
      lf = this.endAfterQuotes(buf);
      if (lf < 0) return found;
    } else if (!this.emailField(buf, start, lf > start && buf[lf - 1] === CR ? lf - 1 : lf, false)) return found;
    if (lf - start > LONGEST_RECORD) return found;
    const crlf = lf > start && buf[lf - 1] === CR;
    found.contentEnd = crlf ? lf - 1 : lf;
    if (this.crAt < start) this.crAt = nextIndex(buf, CR, start);
    if (this.crAt < found.contentEnd) return found;
    found.eol = crlf ? '\r\n' : '\n';
    found.next = lf + 1;
    return found;
  }

  private emailField(buf: Buffer, start: number, limit: number, delimited: boolean): boolean {
    let from = start;
    for (let field = 0; field < this.column; field++) {
      const at = buf.indexOf(this.delimiter, from);
      if (at < 0 || at >= limit) return false;
      from = at + 1;
    }
    let to = buf.indexOf(this.delimiter, from);
    if (to < 0 || to >= limit) {
      // A line without a delimiter where the header has several is blank (or not what the scan counted).
      if (delimited || (this.columnCount > 1 && this.column === 0)) return false;
      to = limit;
    }
    this.found.cell = buf.toString('utf8', from, to);
    return true;
  }

  /** The LF ending a record whose quoted fields come after the email field; -1 where the fast reader must decide. */
  private endAfterQuotes(buf: Buffer): number {
    for (let open = this.quoteAt; ; open = this.quoteAt) {
      if (buf[open - 1] !== this.delimiter) return -1;
      let close = buf.indexOf(QUOTE, open + 1);
      while (close >= 0 && buf[close + 1] === QUOTE) close = buf.indexOf(QUOTE, close + 2);
      if (close < 0 || close + 1 >= buf.length) return -1;
      const after = buf[close + 1];
      if (after !== this.delimiter && after !== LF && after !== CR) return -1;
      for (let k = buf.indexOf(LF, open + 1); k !== -1 && k < close; k = buf.indexOf(LF, k + 1)) this.found.newlines++;
      const lf = buf.indexOf(LF, close + 1);
      if (lf < 0) return -1;
      this.quoteAt = nextIndex(buf, QUOTE, close + 1);
      if (this.quoteAt > lf) return lf;
    }
  }
}

function nextIndex(buf: Buffer, byte: number, from: number): number {
  const at = buf.indexOf(byte, from);
  return at < 0 ? buf.length : at;
}
