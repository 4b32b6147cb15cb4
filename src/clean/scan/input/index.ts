// The input side of `mailclean clean`: find out what the input is (openInput), then stream its records as often as
// needed (readRecords). See docs/assumptions.md for the detection rules.
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { UsageError } from '../../../errors.js';
import { chooseEmailColumn, ownColumns } from './columns.js';
import { bomEncoding, type InputEncoding, isUtf16, transcode } from './decode.js';
import { nulError, QUOTE_HINT, utf8Error } from './problems.js';
import { excelSepLine, isHeaderRecord, parseSample, recordSpansLines, sniffFormat } from './sniff.js';
import {
  type ByteScan,
  byteAt,
  fileKind,
  firstInvalidUtf8,
  lineAtOffset,
  looksBinary,
  removeDeadSpools,
  scanBytes,
  spool,
} from './source.js';
import { looksLikeWorkbook, workbookToCsv } from './workbook.js';

export type { InputEncoding } from './decode.js';
export type { InputLayout, InputRecord } from './layout.js';
export type { ReadOptions } from './records.js';

import type { InputLayout } from './layout.js';

export { readRecordBatches, readRecords } from './records.js';

export interface OpenInputOptions {
  /** A file path, or '-' for stdin. */
  path: string;
  /** Read when path is '-'. */
  stdin?: NodeJS.ReadableStream;
  /** Where stdin (or a pipe given as a path) is spooled to a temporary file; created if missing. */
  spoolDir: string;
  /** --column NAME|N: a header name (case/spacing-insensitive) or a 1-based column number. */
  column?: string;
  /** Stops spooling stdin (or a pipe); the partial copy is removed. */
  signal?: AbortSignal;
  /** --encoding; by default a BOM's, else UTF-8 if the whole input is valid UTF-8, else Windows-1252. */
  encoding?: InputEncoding;
  /** --strict: a row with more or fewer fields than the header is an error, not a row kept as it is. */
  strict?: boolean;
  /** --sheet NAME|N: the sheet of an .xlsx input (the first by default). */
  sheet?: string;
}

export async function openInput(opts: OpenInputOptions): Promise<InputLayout> {
  removeDeadSpools(opts.spoolDir);
  const displayName = opts.path === '-' ? 'stdin' : opts.path;
  const spooled: string[] = [];
  const file = await readableTwice(opts, displayName, spooled);
  const cleanup = async (): Promise<void> => {
    for (const f of spooled) await rm(f, { force: true });
  };
  try {
    const original = await scanBytes(file, displayName);
    const strict = opts.strict === true;
    if (looksLikeWorkbook(original.sample, displayName)) {
      const csv = await workbookToCsv(file, opts.spoolDir, displayName, opts.sheet);
      spooled.push(csv);
      const layout = await detect(csv, displayName, await scanBytes(csv, displayName), opts.column);
      // The journal names the user's workbook and sheet, not the copy.
      return {
        ...layout,
        fingerprint: `${original.fingerprint}:${opts.sheet ?? ''}`,
        size: original.size,
        encoding: 'utf-8',
        encodingGuessed: false,
        strict,
        cleanup,
      };
    }
    if (opts.sheet !== undefined) throw new UsageError(`--sheet: ${displayName} is not an Excel workbook (.xlsx)`);
    const encoding = opts.encoding ?? (await guessEncoding(file, displayName, original));
    const encodingGuessed = opts.encoding === undefined && encoding === 'windows-1252';
    // UTF-16 is judged once decoded; in the others, text and control bytes are the same bytes before and after.
    if (!isUtf16(encoding)) refuseNonText(original, displayName);
    if (encoding === 'utf-8')
      return {
        ...(await detect(file, displayName, original, opts.column)),
        encoding,
        encodingGuessed,
        strict,
        cleanup,
      };
    const text = await transcode(file, encoding, opts.spoolDir, displayName);
    spooled.push(text);
    const scan = await scanBytes(text, displayName);
    if (isUtf16(encoding)) refuseNonText(scan, displayName);
    const layout = await detect(text, displayName, scan, opts.column);
    // The journal and the size name the user's bytes, not the copy's.
    return {
      ...layout,
      fingerprint: original.fingerprint,
      size: original.size,
      encoding,
      encodingGuessed,
      strict,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** The input as a file that can be read twice: stdin and pipes are spooled first (their copy listed in `spooled`). */
async function readableTwice(opts: OpenInputOptions, displayName: string, spooled: string[]): Promise<string> {
  let file = opts.path;
  if (opts.path === '-') {
    if (!opts.stdin) throw new UsageError('no input: give a file, or a stream to read it from');
    file = await spool(opts.stdin, opts.spoolDir, displayName, opts.signal);
  }
  // A pipe (`<(cmd)`, /dev/stdin) can be read only once; the two passes need a file.
  else if ((await fileKind(opts.path, displayName)) === 'stream') {
    file = await spool(createReadStream(opts.path), opts.spoolDir, displayName, opts.signal);
  }
  if (file !== opts.path) spooled.push(file);
  return file;
}

/** A BOM's encoding; else UTF-8 if the whole input is valid UTF-8; else Windows-1252, where every byte is a character. */
async function guessEncoding(file: string, displayName: string, scan: ByteScan): Promise<InputEncoding> {
  const bom = bomEncoding(scan.sample);
  if (bom) return bom;
  if (scan.badUtf8 >= 0) return 'windows-1252';
  if (scan.sampleComplete) return 'utf-8';
  return (await firstInvalidUtf8(file, displayName)) >= 0 ? 'windows-1252' : 'utf-8';
}

// Messages about the whole input say line 1, so that every input error reads `file:line: ...`.
function refuseNonText(scan: ByteScan, displayName: string): void {
  const what = displayName === 'stdin' ? 'the input' : 'the file';
  if (scan.size === 0 || !scan.hasText) throw new UsageError(`${displayName}:1: ${what} is empty`);
  if (looksBinary(scan.sample))
    throw new UsageError(`${displayName}:1: this looks like a binary file, not CSV or text`);
}

type DetectedLayout = Omit<InputLayout, 'cleanup' | 'encoding' | 'encodingGuessed' | 'strict'>;

async function detect(
  file: string,
  displayName: string,
  scan: ByteScan,
  column: string | undefined,
): Promise<DetectedLayout> {
  const what = displayName === 'stdin' ? 'the input' : 'the file';
  const { text, bom, lineEnding } = await sampleText(file, displayName, scan);
  const { format, delimiter, parsed, sep, lineOffset } = parseRecords(text, displayName, scan.sampleComplete);
  const first = parsed.records[0];
  if (!first) throw new UsageError(`${displayName}:1: ${what} is empty`);
  const firstLine = first.line + lineOffset;
  const hasHeader = isHeaderRecord(first.fields, format);
  const header = hasHeader ? first.fields.map((f) => f.trim()) : [];
  const rows = hasHeader ? parsed.records.slice(1) : parsed.records;
  if (hasHeader && rows.length === 0 && scan.sampleComplete) {
    throw new UsageError(`${displayName}:${firstLine}: ${what} has a header but no rows`);
  }
  const columnCount = first.fields.length;
  const ours = ownColumns(header);
  const choice = chooseEmailColumn({ displayName, line: firstLine, header, columnCount, rows, column, ours });
  const layout: DetectedLayout = {
    file,
    displayName,
    format,
    delimiter,
    bom,
    bodyOffset: (bom ? 3 : 0) + (sep?.end ?? 0), // the line is ASCII: characters are bytes
    bodyLine: 1 + lineOffset,
    lineEnding,
    endsWithNewline: scan.lastByte === 10,
    hasHeader,
    header,
    columnCount,
    emailColumn: choice.index,
    emailColumnName: choice.name,
    ownColumns: ours,
    fingerprint: scan.fingerprint,
    size: scan.size,
  };
  if (hasHeader) layout.headerRaw = first.raw;
  if (sep) layout.sepLine = sep.line;
  return layout;
}

/**
 * The sample as text, cut after its last complete line unless it is the whole file; refused when it holds a
 * NUL or bad UTF-8 (whichever comes first, as the reader would report them) or ends lines with CR alone.
 */
async function sampleText(
  file: string,
  displayName: string,
  scan: ByteScan,
): Promise<{ text: string; bom: boolean; lineEnding: '\n' | '\r\n' }> {
  const s = scan.sample;
  const nul = s.indexOf(0);
  if (scan.badUtf8 >= 0 && (nul < 0 || scan.badUtf8 < nul)) {
    throw utf8Error(
      displayName,
      await lineAtOffset(file, scan.badUtf8),
      s[scan.badUtf8] ?? (await byteAt(file, scan.badUtf8)),
    );
  }
  if (nul >= 0) throw nulError(displayName, await lineAtOffset(file, nul));
  const bom = s[0] === 0xef && s[1] === 0xbb && s[2] === 0xbf;
  let body = s.subarray(bom ? 3 : 0);
  if (!scan.sampleComplete) {
    const cut = body.lastIndexOf(10);
    if (cut >= 0) body = body.subarray(0, cut + 1);
  }
  const text = body.toString('utf8');
  const firstLf = text.indexOf('\n');
  if (firstLf < 0 && text.includes('\r')) {
    throw new UsageError(
      `${displayName}:1: lines end with a carriage return alone (old Mac format)`,
      'save the file with LF or CRLF line endings',
    );
  }
  return { text, bom, lineEnding: firstLf > 0 && text[firstLf - 1] === '\r' ? '\r\n' : '\n' };
}

/** The sample's records, after Excel's `sep=` line if any (line numbers still count it); a broken quote is refused. */
function parseRecords(text: string, displayName: string, sampleComplete: boolean) {
  const sep = excelSepLine(text);
  const recordsText = sep ? text.slice(sep.end) : text;
  const lineOffset = sep ? 1 : 0;
  const { format, delimiter, parsed } = sep
    ? { format: 'csv' as const, delimiter: sep.delimiter, parsed: parseSample(recordsText, 'csv', sep.delimiter) }
    : sniffFormat(text);
  const error = parsed.error;
  if (error) {
    const where = `${displayName}:${error.line + lineOffset}`;
    if (error.code === 'CSV_MAX_RECORD_SIZE') {
      // A huge record, or a quote that swallows everything after it: only a quoted field can span lines.
      throw recordSpansLines(recordsText, error.line)
        ? new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT)
        : new UsageError(`${where}: a record longer than 1 MiB`);
    }
    if (error.code === 'CSV_QUOTE_NOT_CLOSED' && sampleComplete)
      throw new UsageError(`${where}: a quoted field is never closed`, QUOTE_HINT);
  }
  return { format, delimiter, parsed, sep, lineOffset };
}
