// The layout of a text input, from a sample: the format and delimiter, the header, the email column, and where the
// records start. See docs/assumptions.md for the rules.
import { UsageError } from '../../../errors.js';
import { chooseEmailColumn, ownColumns } from './columns.js';
import type { InputLayout } from './layout.js';
import { parseError } from './problems.js';
import { excelSepLine, isHeaderRecord, parseSample, recordSpansLines, sniffFormat } from './sniff.js';
import { type ByteScan, badByteError } from './source.js';

export type DetectedLayout = Omit<InputLayout, 'cleanup' | 'encoding' | 'encodingGuessed' | 'strict'>;

/** `commaSeparated` (a workbook's spool) is not sniffed: a one-column sheet's semicolons must not split it. */
export async function detect(
  file: string,
  displayName: string,
  scan: ByteScan,
  column: string | undefined,
  commaSeparated = false,
): Promise<DetectedLayout> {
  const what = displayName === 'stdin' ? 'the input' : 'the file';
  const { text, bom, lineEnding } = await sampleText(file, displayName, scan);
  const { format, delimiter, parsed, sep, lineOffset } = parseRecords(
    text,
    displayName,
    scan.sampleComplete,
    commaSeparated,
  );
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

/** The sample cut after its last complete line; refused when it holds a NUL or bad UTF-8, or ends lines with CR. */
async function sampleText(
  file: string,
  displayName: string,
  scan: ByteScan,
): Promise<{ text: string; bom: boolean; lineEnding: '\n' | '\r\n' }> {
  const s = scan.sample;
  const nul = s.indexOf(0);
  // Whichever comes first, as the reader would report it.
  const bad = nul < 0 || (scan.badUtf8 >= 0 && scan.badUtf8 < nul) ? scan.badUtf8 : nul;
  if (bad >= 0) throw await badByteError(file, displayName, bad);
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
function parseRecords(text: string, displayName: string, sampleComplete: boolean, commaSeparated: boolean) {
  const sep = commaSeparated ? undefined : excelSepLine(text);
  const recordsText = sep ? text.slice(sep.end) : text;
  const lineOffset = sep ? 1 : 0;
  const named = sep?.delimiter ?? (commaSeparated ? ',' : undefined);
  const { format, delimiter, parsed } = named
    ? { format: 'csv' as const, delimiter: named, parsed: parseSample(recordsText, 'csv', named) }
    : sniffFormat(text);
  const error = parsed.error;
  // An unclosed quote in a sample cut short may close after it.
  if (error && (sampleComplete || error.code === 'CSV_MAX_RECORD_SIZE')) {
    const where = `${displayName}:${error.line + lineOffset}`;
    const refusal = parseError(where, error.code, () => recordSpansLines(recordsText, error.line));
    if (refusal) throw refusal;
  }
  return { format, delimiter, parsed, sep, lineOffset };
}
