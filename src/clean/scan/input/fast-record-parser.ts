// The input's fast path: decodes only the fields asked for, giving exactly csv-parse's records (a fuzz test holds
// it to that); from the first record it cannot be sure of, csv-parse reads the rest and reports any error.
import type { UsageError } from '../../../errors.js';
import type { InputLayout, InputRecord } from './index.js';
import { LineEnds, LONGEST_RECORD } from './line-ends.js';
import { raggedError } from './problems.js';
import { isBlankBytes, RecordParser, type RecordSource } from './record-parser.js';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const INCOMPLETE = -1;
const UNSURE = -2;

const EMPTY = Buffer.alloc(0);

export class FastRecordParser implements RecordSource {
  private batch: InputRecord[] = [];
  private ownFailure: UsageError | undefined;
  private pending: Buffer = EMPTY;
  private nextLine: number;
  private headerPending: boolean;
  private takenOver: RecordParser | undefined;
  private handOverError: Error | undefined;
  private readonly delimiter: number;
  private readonly quote: number;
  private readonly column: number;
  private fieldCount = 0;
  private cell: string | undefined;
  private fields: string[] | undefined;
  private newlines = 0;
  private contentEnd = 0;
  private eol: InputRecord['eol'] = '';

  constructor(
    private readonly layout: InputLayout,
    private readonly withRaw: boolean | 'bytes',
    private readonly allFields: boolean,
    evenRows = false,
  ) {
    // 'lines' has neither: one field per line.
    this.delimiter = layout.format === 'lines' ? -1 : layout.delimiter.charCodeAt(0);
    this.quote = layout.format === 'lines' ? -1 : QUOTE;
    this.column = layout.emailColumn;
    this.nextLine = layout.bodyLine;
    this.headerPending = layout.hasHeader;
    if (evenRows && !allFields && layout.format !== 'lines') this.byLineEnd = new LineEnds(layout);
  }

  private readonly byLineEnd: LineEnds | undefined;

  static handles(layout: InputLayout): boolean {
    return layout.format === 'lines' || (layout.delimiter.length === 1 && layout.delimiter.charCodeAt(0) < 0x80);
  }

  get handedOver(): boolean {
    return this.takenOver !== undefined;
  }

  get failure(): UsageError | undefined {
    return this.ownFailure ?? this.takenOver?.failure;
  }

  feed(chunk: Buffer): Error | undefined {
    if (this.takenOver) return this.takenOver.feed(chunk);
    if (this.ownFailure) return undefined;
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const consumed = this.scan(buf, false);
    if (this.takenOver) return this.handOverError;
    const left = buf.length - consumed;
    if (left > LONGEST_RECORD) {
      this.handOver(buf.subarray(consumed));
      return this.handOverError;
    }
    this.pending = left > 0 ? Buffer.from(buf.subarray(consumed)) : EMPTY;
    return undefined;
  }

  async end(): Promise<Error | undefined> {
    if (!this.takenOver && !this.ownFailure && this.pending.length > 0) {
      this.scan(this.pending, true);
      if (this.handOverError) return this.handOverError;
    }
    this.pending = EMPTY;
    return this.takenOver?.end();
  }

  takeBatch(): InputRecord[] {
    const out = this.batch;
    this.batch = [];
    if (!this.takenOver) return out;
    const theirs = this.takenOver.takeBatch();
    return out.length === 0 ? theirs : out.concat(theirs);
  }

  describe(err: Error): UsageError {
    // Only csv-parse produces parser errors, so it is the one that took over.
    return this.takenOver!.describe(err);
  }

  private scan(buf: Buffer, atEnd: boolean): number {
    let at = 0;
    this.byLineEnd?.newBytes();
    while (at < buf.length && !this.ownFailure) {
      const end = this.recordByLineEnd(buf, at) ?? this.record(buf, at, atEnd);
      if (end === INCOMPLETE) return at;
      if (end === UNSURE) {
        this.handOver(buf.subarray(at));
        return buf.length;
      }
      this.deliver(buf, at);
      at = end;
    }
    return at;
  }

  private handOver(rest: Buffer): void {
    this.pending = EMPTY;
    this.takenOver = new RecordParser(this.layout, this.withRaw !== false, {
      line: this.nextLine,
      headerPending: this.headerPending,
    });
    this.handOverError = this.takenOver.feed(rest);
  }

  private deliver(buf: Buffer, start: number): void {
    const line = this.nextLine;
    this.nextLine += 1 + this.newlines;
    if (this.fieldCount === 1 && isBlankBytes(buf, start, this.contentEnd)) return;
    if (this.headerPending) {
      this.headerPending = false;
      return;
    }
    if (this.fieldCount !== this.layout.columnCount && this.layout.strict) {
      this.ownFailure = raggedError(this.layout, line, this.fieldCount);
      return;
    }
    let fields = this.fields;
    if (fields === undefined) {
      fields = new Array<string>(this.fieldCount);
      if (this.cell !== undefined) fields[this.column] = this.cell;
    }
    if (this.withRaw === 'bytes')
      this.batch.push({ line, raw: '', rawBytes: buf.subarray(start, this.contentEnd), fields, eol: this.eol });
    else
      this.batch.push({
        line,
        raw: this.withRaw ? buf.toString('utf8', start, this.contentEnd) : '',
        fields,
        eol: this.eol,
      });
  }

  private recordByLineEnd(buf: Buffer, start: number): number | undefined {
    const found = this.byLineEnd?.record(buf, start);
    if (found === undefined || found.next < 0) return undefined;
    this.newlines = found.newlines;
    this.cell = found.cell;
    this.fields = undefined;
    return this.ended(this.layout.columnCount, found.contentEnd, found.eol, found.next);
  }

  /** The end of the record at `start`, its findings in fields; INCOMPLETE when `buf` ends first, UNSURE for csv-parse. */
  private record(buf: Buffer, start: number, atEnd: boolean): number {
    const n = buf.length;
    const D = this.delimiter;
    const Q = this.quote;
    let i = start;
    let field = 0;
    this.newlines = 0;
    this.cell = undefined;
    this.fields = this.allFields ? [] : undefined;
    for (;;) {
      let from: number;
      let to: number;
      let escaped = false;
      if (i < n && buf[i] === Q) {
        from = i + 1;
        let q = buf.indexOf(Q, from);
        while (q >= 0 && q + 1 < n && buf[q + 1] === Q) {
          escaped = true;
          q = buf.indexOf(Q, q + 2);
        }
        if (q < 0) return atEnd ? UNSURE : INCOMPLETE; // never closed, or not yet
        if (q + 1 >= n && !atEnd) return INCOMPLETE; // a quote that may be doubled by the next byte
        to = q;
        i = q + 1;
        for (let k = buf.indexOf(LF, from); k !== -1 && k < to; k = buf.indexOf(LF, k + 1)) this.newlines++;
        if (i < n && buf[i] !== D && buf[i] !== LF && buf[i] !== CR) return UNSURE; // text after the closing quote
      } else {
        from = i;
        while (i < n) {
          const c = buf[i];
          if (c === D || c === LF || c === CR || c === Q) break;
          i++;
        }
        to = i;
        if (i < n && buf[i] === Q) return UNSURE; // a quote inside an unquoted field
      }
      if (i - start > LONGEST_RECORD) return UNSURE;
      if (this.fields !== undefined || field === this.column) this.keep(buf, from, to, escaped);
      field++;
      if (i >= n) return atEnd ? this.ended(field, n, '', n) : INCOMPLETE;
      const c = buf[i];
      if (c === D) {
        i++;
        continue;
      }
      if (c === LF) return this.ended(field, i, '\n', i + 1);
      // CR: only CRLF ends a record; a lone CR is csv-parse's to read.
      if (i + 1 >= n) return atEnd ? UNSURE : INCOMPLETE;
      if (buf[i + 1] === LF) return this.ended(field, i, '\r\n', i + 2);
      return UNSURE;
    }
  }

  private keep(buf: Buffer, from: number, to: number, escaped: boolean): void {
    let text = buf.toString('utf8', from, to);
    if (escaped) text = text.replaceAll('""', '"');
    if (this.fields !== undefined) this.fields.push(text);
    else this.cell = text;
  }

  private ended(fieldCount: number, contentEnd: number, eol: InputRecord['eol'], next: number): number {
    this.fieldCount = fieldCount;
    this.contentEnd = contentEnd;
    this.eol = eol;
    return next;
  }
}
