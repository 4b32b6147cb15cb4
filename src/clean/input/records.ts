// The streaming record reader both passes of `clean` use: csv-parse with `raw`, plus line numbers, UTF-8 checking,
// blank-line and header skipping and (with --strict) the field-count check, all done as records are produced.
//
// Speed: the parser is fed 1 MiB chunks synchronously and its records are collected into one array per chunk; the
// iterator hands them out with already-settled promises. An async generator (or a Readable's iterator) per record
// costs about as much as parsing itself on a million rows.
import { createReadStream } from 'node:fs';
import { Parser } from 'csv-parse';
import { UsageError } from '../../errors.js';
import type { InputLayout, InputRecord } from './index.js';
import { nulError, QUOTE_HINT, raggedError, utf8Error } from './problems.js';
import { parserOptions } from './sniff.js';
import { byteAt, CHUNK_BYTES, fileError, lineAtOffset } from './source.js';
import { Utf8Checker } from './utf8.js';

/** Bytes parsed per batch of records. */
const FEED_BYTES = 64 * 1024;

const EMPTY = Buffer.alloc(0);

/** Only spaces, tabs, CR, LF, FF or VT between `from` and `to` (a blank line, whatever its whitespace). */
function isBlankBytes(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a && b !== 0x0c && b !== 0x0b) return false;
  }
  return true;
}

/** Thrown from `on_record` to stop csv-parse at a record we refuse; the reason is kept in `failure`. */
const STOP = new Error('record refused');

/**
 * csv-parse's Parser, through its public API, used as a synchronous engine: `write` parses one chunk at once (no
 * record is pushed downstream, so nothing waits for a reader), and each record arrives in `on_record`, where line
 * numbers, blank lines, the header and the field count are dealt with.
 *
 * The original text of a record is sliced from the input bytes: `info.bytes` in `on_record` is where the record
 * ended (after its terminator). That is byte-exact by construction and cheaper than the `raw` option, which
 * appends every byte to a second buffer.
 */
class RecordParser {
  /** Records produced since the last `takeBatch`. */
  batch: InputRecord[] = [];
  /** The first problem found in a record (the records before it are still delivered). */
  failure: UsageError | undefined;
  private readonly parser: Parser;
  /** Physical line where the next record starts. */
  private nextLine = 1;
  /** The same in csv-parse's own count (which counts a CRLF inside quotes twice); only compared with itself. */
  private parserNextLine = 1;
  private headerPending: boolean;
  /** The chunk being parsed, and its offset in the parser's input. */
  private chunk: Buffer = EMPTY;
  private chunkStart = 0;
  /** Where the next record starts; its bytes from earlier chunks are in `tail`, which ends where `chunk` starts. */
  private recordStart = 0;
  private tail: Buffer = EMPTY;

  constructor(
    private readonly layout: InputLayout,
    private readonly withRaw: boolean,
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
    this.headerPending = layout.hasHeader;
    this.nextLine = layout.bodyLine;
  }

  /** One record from csv-parse, ending at byte `end` of its input; false stops the parser. */
  private take(fields: string[], end: number, parserLines: number): boolean {
    if (this.failure !== undefined) return false;
    this.parserNextLine = parserLines + 1;
    // The record's bytes, terminator included: [recordStart, end).
    let buf = this.chunk;
    let from = this.recordStart - this.chunkStart;
    let to = end - this.chunkStart;
    if (from < 0) {
      // It began in an earlier chunk (csv-parse holds back the last bytes of a chunk for look-ahead, so it may even
      // end there).
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

  /** Parses one chunk; returns csv-parse's error, if any. */
  feed(chunk: Buffer): Error | undefined {
    this.chunk = chunk;
    this.parser.write(chunk);
    // Keep the start of an unfinished record for the next chunk.
    const chunkEnd = this.chunkStart + chunk.length;
    if (this.recordStart >= chunkEnd) this.tail = EMPTY;
    else if (this.recordStart >= this.chunkStart) this.tail = Buffer.from(chunk.subarray(this.recordStart - this.chunkStart));
    else this.tail = Buffer.concat([this.tail.subarray(this.recordStart - (this.chunkStart - this.tail.length)), chunk]);
    this.chunkStart = chunkEnd;
    this.chunk = EMPTY;
    return this.error();
  }

  /** The end of input: the last record, if it had no terminator. */
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

  /** csv-parse's error, as the user should read it. */
  describe(err: Error): UsageError {
    const code = (err as { code?: unknown }).code;
    const where = `${this.layout.displayName}:${this.nextLine}`;
    if (code === 'CSV_MAX_RECORD_SIZE') {
      // A huge record, or a quote that swallows everything after it: only a quoted field can span lines.
      return this.parser.info.lines > this.parserNextLine ? new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT) : new UsageError(`${where}: a record longer than 1 MiB`);
    }
    if (code === 'CSV_QUOTE_NOT_CLOSED') return new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT);
    // Other csv-parse errors cannot happen with the relaxed options used; if one does, the input caused it.
    return new UsageError(`${where}: cannot parse this record (${err.message})`);
  }
}

/** Batches of records, one per chunk of input; a failure is thrown after the records that precede it. */
async function* batches(layout: InputLayout, feedBytes: number, withRaw: boolean): AsyncGenerator<InputRecord[], void, undefined> {
  const start = layout.bodyOffset;
  const source = createReadStream(layout.file, { start, highWaterMark: CHUNK_BYTES });
  const checker = new Utf8Checker(start);
  const parser = new RecordParser(layout, withRaw);
  let failure: Error | undefined;
  try {
    try {
      let offset = start;
      for await (const chunk of source as AsyncIterable<Buffer>) {
        // Bytes before an invalid sequence or a NUL are still parsed, so problems are reported in file order.
        const bad = checker.push(chunk);
        const nulIndex = chunk.indexOf(0);
        const nul = nulIndex < 0 ? -1 : offset + nulIndex;
        const stop = bad < 0 ? nul : nul < 0 ? bad : Math.min(bad, nul);
        const limit = stop >= 0 ? stop - offset : chunk.length;
        offset += chunk.length;
        // Small slices keep each batch small enough to die young (1 MiB batches tripled GC time).
        for (let at = 0; at < limit && !failure; at += feedBytes) {
          const err = parser.feed(chunk.subarray(at, Math.min(at + feedBytes, limit)));
          if (err) failure = parser.describe(err);
          failure = parser.failure ?? failure;
          const records = parser.takeBatch();
          if (records.length > 0) yield records;
        }
        if (!failure && stop >= 0) {
          const line = await lineAtOffset(layout.file, stop);
          failure = stop === bad ? utf8Error(layout.displayName, line, await byteAt(layout.file, bad)) : nulError(layout.displayName, line);
        }
        if (failure) break;
      }
    } catch (err) {
      throw err instanceof UsageError ? err : fileError(layout.displayName, err);
    }
    if (!failure) {
      const end = checker.end();
      if (end >= 0) {
        failure = utf8Error(layout.displayName, await lineAtOffset(layout.file, end), await byteAt(layout.file, end));
      } else {
        const err = await parser.end();
        if (err) failure = parser.describe(err);
        failure = parser.failure ?? failure;
        const records = parser.takeBatch();
        if (records.length > 0) yield records;
      }
    }
    if (failure) throw failure;
  } finally {
    source.destroy();
  }
}

/** Hands out the records of each batch without an async generator step per record. */
class RecordIterator implements AsyncIterableIterator<InputRecord> {
  private batch: InputRecord[] = [];
  private i = 0;

  constructor(private readonly source: AsyncGenerator<InputRecord[], void, undefined>) {}

  next(): Promise<IteratorResult<InputRecord>> {
    const batch = this.batch;
    if (this.i < batch.length) return Promise.resolve({ value: batch[this.i++]!, done: false });
    return this.refill();
  }

  private async refill(): Promise<IteratorResult<InputRecord>> {
    for (;;) {
      const r = await this.source.next();
      if (r.done) {
        this.batch = [];
        return { value: undefined, done: true };
      }
      this.batch = r.value;
      this.i = 0;
      if (this.batch.length > 0) return { value: this.batch[this.i++]!, done: false };
    }
  }

  async return(): Promise<IteratorResult<InputRecord>> {
    this.batch = [];
    await this.source.return(undefined);
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<InputRecord> {
    return this;
  }
}

export interface ReadOptions {
  /** Bytes parsed per batch (default 64 KiB). Tests use tiny values to put chunk boundaries everywhere. */
  feedBytes?: number;
  /** Decode each record's original text into `raw` (default true); a pass that only needs fields skips it. */
  raw?: boolean;
}

/** The same records in arrays, one per slice of input: a pass over millions of rows awaits once per slice. */
export function readRecordBatches(layout: InputLayout, options: ReadOptions = {}): AsyncIterable<InputRecord[]> {
  const feedBytes = Math.max(1, Math.floor(options.feedBytes ?? FEED_BYTES));
  return { [Symbol.asyncIterator]: () => batches(layout, feedBytes, options.raw ?? true) };
}

/** Data records only (the header is skipped), in input order; fully empty (or whitespace-only) lines are skipped. */
export function readRecords(layout: InputLayout, options: ReadOptions = {}): AsyncIterable<InputRecord> {
  const feedBytes = Math.max(1, Math.floor(options.feedBytes ?? FEED_BYTES));
  return {
    [Symbol.asyncIterator]: () => new RecordIterator(batches(layout, feedBytes, options.raw ?? true)),
  };
}
