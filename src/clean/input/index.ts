// The input side of `mailclean clean`: find out what the input is (openInput), then stream its records as often as
// needed (readRecords). See docs/assumptions.md for the detection rules.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { byteAt, fileKind, lineAtOffset, looksBinary, removeDeadSpools, scanBytes, spool } from './source.js';
import { chooseEmailColumn, isHeaderRecord, recordSpansLines, sniffFormat } from './sniff.js';
import { QUOTE_HINT, utf8Error } from './records.js';

export { readRecordBatches, readRecords } from './records.js';
export type { ReadOptions } from './records.js';

export interface OpenInputOptions {
  /** A file path, or '-' for stdin. */
  path: string;
  /** Used when path is '-'. */
  stdin: NodeJS.ReadableStream;
  /** Where stdin (or a pipe given as a path) is spooled to a temporary file; created if missing. */
  spoolDir: string;
  /** --column NAME|N: a header name (case/spacing-insensitive) or a 1-based column number. */
  column?: string;
  /** Stops spooling stdin (or a pipe); the partial copy is removed. */
  signal?: AbortSignal;
}

export interface InputLayout {
  /** The file to read (the spooled copy for stdin). */
  file: string;
  /** How messages name it: the user's path, or 'stdin'. */
  displayName: string;
  /** 'lines' = one address per line, no quoting. */
  format: 'csv' | 'lines';
  /** Sniffed among ',' ';' '\t' '|'; ',' for 'lines' (the delimiter a writer should use for appended columns). */
  delimiter: string;
  /** Input began with a UTF-8 BOM (the writer re-emits it). */
  bom: boolean;
  /** The first line ending in the file ('\n' when there is none). */
  lineEnding: '\n' | '\r\n';
  /** The input's last byte is a line ending. */
  endsWithNewline: boolean;
  hasHeader: boolean;
  /** Header fields ([] without a header). */
  header: string[];
  /** The header record's exact original text, without its line terminator. */
  headerRaw?: string;
  columnCount: number;
  /** 0-based index. */
  emailColumn: number;
  /** Header name, or `column N`. */
  emailColumnName: string;
  /** Digest of the size and the first 2 MiB: names the input for the resume journal. */
  fingerprint: string;
  /** Size of the input in bytes. */
  size: number;
  /** Removes the spooled copy, if any. */
  cleanup(): Promise<void>;
}

export interface InputRecord {
  /** 1-based physical line where the record starts. */
  line: number;
  /** The record's exact original text without its line terminator. */
  raw: string;
  /** Parsed fields. */
  fields: string[];
  /** The terminator that followed it in the input ('' for a last line without one). */
  eol: '\n' | '\r\n' | '';
}

export async function openInput(opts: OpenInputOptions): Promise<InputLayout> {
  removeDeadSpools(opts.spoolDir);
  const fromStdin = opts.path === '-';
  const displayName = fromStdin ? 'stdin' : opts.path;
  let file = opts.path;
  let spooled = false;
  if (fromStdin) {
    file = await spool(opts.stdin, opts.spoolDir, displayName, opts.signal);
    spooled = true;
  } else if ((await fileKind(opts.path, displayName)) === 'stream') {
    // A pipe (`<(cmd)`, /dev/stdin) can be read only once; the two passes need a file.
    file = await spool(createReadStream(opts.path), opts.spoolDir, displayName, opts.signal);
    spooled = true;
  }
  const cleanup = async (): Promise<void> => {
    if (spooled) await rm(file, { force: true });
  };
  try {
    return { ...(await detect(file, displayName, opts.column)), cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function detect(file: string, displayName: string, column: string | undefined): Promise<Omit<InputLayout, 'cleanup'>> {
  const scan = await scanBytes(file, displayName);
  const what = displayName === 'stdin' ? 'the input' : 'the file';
  if (scan.size === 0 || !scan.hasText) throw new UsageError(`${displayName}: ${what} is empty`);
  const s = scan.sample;
  if ((s[0] === 0xff && s[1] === 0xfe) || (s[0] === 0xfe && s[1] === 0xff)) {
    throw new UsageError(`${displayName}: ${what} is UTF-16 text`, 'save it as UTF-8 (in a spreadsheet: "CSV UTF-8")');
  }
  if (looksBinary(s)) throw new UsageError(`${displayName}: this looks like a binary file, not CSV or text`);
  if (scan.badUtf8 >= 0) {
    throw utf8Error(displayName, await lineAtOffset(file, scan.badUtf8), s[scan.badUtf8] ?? (await byteAt(file, scan.badUtf8)));
  }
  const bom = s[0] === 0xef && s[1] === 0xbb && s[2] === 0xbf;

  // The sample as text, cut after its last complete line unless it is the whole file.
  let body = s.subarray(bom ? 3 : 0);
  if (!scan.sampleComplete) {
    const cut = body.lastIndexOf(10);
    if (cut >= 0) body = body.subarray(0, cut + 1);
  }
  const text = body.toString('utf8');

  const firstLf = text.indexOf('\n');
  if (firstLf < 0 && text.includes('\r')) {
    throw new UsageError(
      `${displayName}: lines end with a carriage return alone (old Mac format)`,
      'save the file with LF or CRLF line endings',
    );
  }
  const lineEnding = firstLf > 0 && text[firstLf - 1] === '\r' ? '\r\n' : '\n';

  const { format, delimiter, parsed } = sniffFormat(text);
  if (parsed.error) {
    const where = `${displayName}:${parsed.error.line}`;
    if (parsed.error.code === 'CSV_MAX_RECORD_SIZE') {
      // A huge record, or a quote that swallows everything after it: only a quoted field can span lines.
      throw recordSpansLines(text, parsed.error.line)
        ? new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT)
        : new UsageError(`${where}: a record longer than 1 MiB`);
    }
    if (parsed.error.code === 'CSV_QUOTE_NOT_CLOSED' && scan.sampleComplete) {
      throw new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT);
    }
  }
  const records = parsed.records;
  const first = records[0];
  if (!first) throw new UsageError(`${displayName}: ${what} is empty`);
  const hasHeader = isHeaderRecord(first.fields, format);
  const header = hasHeader ? first.fields.map((f) => f.trim()) : [];
  const rows = hasHeader ? records.slice(1) : records;
  if (hasHeader && rows.length === 0 && scan.sampleComplete) {
    throw new UsageError(`${displayName}: ${what} has a header but no rows`);
  }
  const columnCount = first.fields.length;
  const choice = chooseEmailColumn({ displayName, header, columnCount, rows, column });
  const layout: Omit<InputLayout, 'cleanup'> = {
    file,
    displayName,
    format,
    delimiter,
    bom,
    lineEnding,
    endsWithNewline: scan.lastByte === 10,
    hasHeader,
    header,
    columnCount,
    emailColumn: choice.index,
    emailColumnName: choice.name,
    fingerprint: scan.fingerprint,
    size: scan.size,
  };
  if (hasHeader) layout.headerRaw = first.raw;
  return layout;
}
