import { Parser } from 'csv-parse';
import { UsageError } from '../../../errors.js';
import type { InputLayout, InputRecord } from './index.js';
import { parseError, raggedError } from './problems.js';
import { parserOptions } from './sniff.js';

const EMPTY = Buffer.alloc(0);

export interface RecordSource {
  /** The first problem found in a record (the records before it are still delivered). */
  readonly failure: UsageError | undefined;
  feed(chunk: Buffer): Error | undefined;
  /** The end of input: the last record, if it had no terminator. */
  end(): Promise<Error | undefined>;
  takeBatch(): InputRecord[];
  describe(err: Error): UsageError;
}

export interface ParseStart {
  line: number;
  headerPending: boolean;
}

export function isBlankBytes(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a && b !== 0x0c && b !== 0x0b) return false;
  }
  return true;
}

/** Thrown from `on_record` to stop csv-parse at a record we refuse; the reason is kept in `failure`. */
const STOP = new Error('record refused');

/** csv-parse used synchronously; a record's text is sliced from the input bytes, cheaper than the `raw` option. */
export class RecordParser implements RecordSource {
  batch: InputRecord[] = [];
  failure: UsageError | undefined;
  private readonly parser: Parser;
  private nextLine = 1;
  /** The same in csv-parse's own count (which counts a CRLF inside quotes twice); only compared with itself. */
  private parserNextLine = 1;
  private headerPending: boolean;
  private chunk: Buffer = EMPTY;
  private chunkStart = 0;
  /** Where the next record starts; its bytes from earlier chunks are in `tail`, which ends where `chunk` starts. */
  private recordStart = 0;
  private tail: Buffer = EMPTY;

  constructor(
    private readonly layout: InputLayout,
    private readonly withRaw: boolean,
    start: ParseStart = { line: layout.bodyLine, headerPending: layout.hasHeader },
  ) {
    this.parser = new Parser({
      ...parserOptions(layout.format, layout.delimiter, false),
      on_record: (fields: string[], info: { bytes: number; lines: number }) => {
        if (!this.take(fields, info.bytes, info.lines)) throw STOP;
        return null; // collected here: nothing for the stream's readable side
      },
    });
    // Failures are read from `errored` after each write; the event must still have a listener.
    this.parser.on('error', () => {});
    this.headerPending = start.headerPending;
    this.nextLine = start.line;
  }

  private take(fields: string[], end: number, parserLines: number): boolean {
    if (this.failure !== undefined) return false;
    this.parserNextLine = parserLines + 1;
    let buf = this.chunk;
    let from = this.recordStart - this.chunkStart;
    let to = end - this.chunkStart;
    if (from < 0) {
      // It began in an earlier chunk (csv-parse holds back a chunk's last bytes, so it may even end there).
      const tailStart = this.chunkStart - this.tail.length;
      if (to <= 0) {
        buf = this.tail;
        from = this.recordStart - tailStart;
        to = end - tailStart;
      } else {
        buf = Buffer.concat([this.tail.subarray(this.recordStart - tailStart), this.chunk.subarray(0, to)]);
        from = 0;
        to = buf.length;
      }
    }
    this.recordStart = end;
    let eol: InputRecord['eol'] = '';
    if (to > from && buf[to - 1] === 10) {
      if (to - 1 > from && buf[to - 2] === 13) {
        eol = '\r\n';
        to -= 2;
      } else {
        eol = '\n';
        to -= 1;
      }
    }
    const line = this.nextLine;
    let newlines = 0;
    for (let i = buf.indexOf(10, from); i !== -1 && i < to; i = buf.indexOf(10, i + 1)) newlines++;
    this.nextLine = line + 1 + newlines;
    if (fields.length === 1 && isBlankBytes(buf, from, to)) return true;
    // Decoding the record's text is the costliest step left; the scan pass does without it.
    const raw = this.withRaw ? buf.toString('utf8', from, to) : '';
    if (this.headerPending) {
      this.headerPending = false;
      return true;
    }
    // Kept by default: the scan counts such rows and the writer lines their results up (clean --strict refuses).
    if (fields.length !== this.layout.columnCount && this.layout.strict) {
      this.failure = raggedError(this.layout, line, fields.length);
      return false;
    }
    this.batch.push({ line, raw, fields, eol });
    return true;
  }

  feed(chunk: Buffer): Error | undefined {
    this.chunk = chunk;
    this.parser.write(chunk);
    const chunkEnd = this.chunkStart + chunk.length;
    if (this.recordStart >= chunkEnd) this.tail = EMPTY;
    else if (this.recordStart >= this.chunkStart)
      this.tail = Buffer.from(chunk.subarray(this.recordStart - this.chunkStart));
    else
      this.tail = Buffer.concat([this.tail.subarray(this.recordStart - (this.chunkStart - this.tail.length)), chunk]);
    this.chunkStart = chunkEnd;
    this.chunk = EMPTY;
    return this.error();
  }

  async end(): Promise<Error | undefined> {
    if (!this.parser.errored) await new Promise<void>((resolve) => this.parser.end(() => resolve()));
    return this.error();
  }

  private error(): Error | undefined {
    const err = this.parser.errored ?? undefined;
    return err === STOP ? undefined : err;
  }

  takeBatch(): InputRecord[] {
    const out = this.batch;
    this.batch = [];
    return out;
  }

  describe(err: Error): UsageError {
    const where = `${this.layout.displayName}:${this.nextLine}`;
    const code = (err as { code?: unknown }).code;
    return (
      parseError(where, code, () => this.parser.info.lines > this.parserNextLine) ??
      // Other errors cannot happen with the relaxed options used; if one does, the input caused it.
      new UsageError(`${where}: cannot parse this record (${err.message})`)
    );
  }
}
