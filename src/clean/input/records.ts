// The streaming record reader both passes of `clean` use: csv-parse with `raw`, plus line numbers, UTF-8 checking,
// blank-line and header skipping and the field-count check, all done as records are produced.
//
// Speed: the parser is fed 1 MiB chunks synchronously and its records are collected into one array per chunk; the
// iterator hands them out with already-settled promises. An async generator (or a Readable's iterator) per record
// costs about as much as parsing itself on a million rows.
import { createReadStream } from 'node:fs';
import { Parser } from 'csv-parse';
import { UsageError } from '../../errors.js';
import { byteAt, CHUNK_BYTES, fileError, lineAtOffset } from './source.js';
import { parserOptions } from './sniff.js';
import { Utf8Checker } from './utf8.js';
import type { InputLayout, InputRecord } from './index.js';

/** Bytes parsed per batch of records. */
const FEED_BYTES = 64 * 1024;

export const QUOTE_HINT = 'a double quote that starts a field must end it too; double any quote inside it';

export function raggedError(layout: InputLayout, line: number, fields: number): UsageError {
  const where = `${layout.displayName}:${line}`;
  const has = layout.hasHeader ? 'the header has' : 'the first row has';
  return new UsageError(
    `${where}: ${fields} field${fields === 1 ? '' : 's'} where ${has} ${layout.columnCount}`,
    `a field containing ${delimiterName(layout.delimiter)}, a quote or a line break must be in double quotes`,
  );
}

export function delimiterName(d: string): string {
  return d === '\t' ? 'a tab' : `"${d}"`;
}

export function utf8Error(displayName: string, line: number, byte: number): UsageError {
  return new UsageError(
    `${displayName}:${line}: not valid UTF-8 (byte 0x${byte.toString(16).padStart(2, '0')})`,
    'save the file as UTF-8 (in a spreadsheet: "CSV UTF-8"), or name its encoding with --encoding',
  );
}

/** The same wherever the NUL is: found while sniffing or while reading. */
export function nulError(displayName: string, line: number): UsageError {
  return new UsageError(`${displayName}:${line}: contains a NUL byte`, 'this looks like a damaged text file');
}

const EMPTY = Buffer.alloc(0);

/** Only spaces, tabs, CR, LF, FF or VT between `from` and `to` (a blank line, whatever its whitespace). */
function isBlankBytes(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a && b !== 0x0c && b !== 0x0b) return false;
  }
  return true;
}

/**
 * csv-parse's Parser used as a synchronous engine: `feed` runs its `_transform` on one chunk, and the records it
 * produces arrive in `push`, where line numbers, blank lines, the header and the field count are dealt with.
 *
 * The original text of a record is sliced from the input bytes: csv-parse's `info.bytes` is where the record
 * ended (after its terminator) when it is pushed. That is byte-exact by construction and cheaper than the `raw`
 * option, which appends every byte to a second buffer.
 */
class RecordParser extends Parser {
  /** Records produced since the last `takeBatch`. */
  batch: InputRecord[] = [];
  /** The first problem found in a record (the records before it are still delivered). */
  failure: UsageError | undefined;
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
    super(parserOptions(layout.format, layout.delimiter, false));
    this.headerPending = layout.hasHeader;
    this.nextLine = layout.bodyLine;
  }

  override push(chunk: unknown): boolean {
    if (chunk === null || this.failure !== undefined) return false;
    const fields = chunk as string[];
    this.parserNextLine = this.info.lines + 1;
    // The record's bytes, terminator included: [recordStart, end).
    const end = this.info.bytes;
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
    if (fields.length !== this.layout.columnCount) {
      this.failure = raggedError(this.layout, line, fields.length);
      return false;
    }
    this.batch.push({ line, raw, fields, eol });
    return true;
  }

  /** Parses one chunk (or, with `undefined`, the end of input); returns csv-parse's error, if any. */
  feed(chunk: Buffer | undefined): Error | undefined {
    let result: Error | undefined;
    let called = false;
    const done = (err?: Error | null): void => {
      called = true;
      result = err ?? undefined;
    };
    if (chunk === undefined) {
      this._flush(done);
    } else {
      this.chunk = chunk;
      this._transform(chunk, 'buffer' as BufferEncoding, done);
      // Keep the start of an unfinished record for the next chunk.
      const chunkEnd = this.chunkStart + chunk.length;
      if (this.recordStart >= chunkEnd) this.tail = EMPTY;
      else if (this.recordStart >= this.chunkStart) this.tail = Buffer.from(chunk.subarray(this.recordStart - this.chunkStart));
      else this.tail = Buffer.concat([this.tail.subarray(this.recordStart - (this.chunkStart - this.tail.length)), chunk]);
      this.chunkStart = chunkEnd;
      this.chunk = EMPTY;
    }
    if (!called) throw new Error('csv-parse did not parse synchronously'); // a csv-parse upgrade changed this
    return result;
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
      return this.info.lines > this.parserNextLine
        ? new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT)
        : new UsageError(`${where}: a record longer than 1 MiB`);
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
        const err = parser.feed(undefined);
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
