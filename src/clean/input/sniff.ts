// Layout detection from a sample: delimiter, format, header and the email column.
import { parse as parseSync } from 'csv-parse/sync';
import type { Options } from 'csv-parse';
import { UsageError } from '../../errors.js';
import { RESULT_COLUMNS, SUGGESTION_COLUMN } from '../verdict.js';

export const DELIMITERS = [',', ';', '\t', '|'] as const;
/** Records looked at for sniffing. */
export const SNIFF_RECORDS = 200;
/** csv-parse's max_record_size: longer records are refused. */
export const MAX_RECORD = 1 << 20;

/** csv-parse options shared by the sniffer and the streaming reader, so both see the same records. */
export function parserOptions(format: 'csv' | 'lines', delimiter: string, raw = true): Options {
  return {
    // 'lines' has no quoting and no delimiter; a NUL is refused before it reaches the parser.
    delimiter: format === 'lines' ? '\0' : delimiter,
    quote: format === 'lines' ? null : '"',
    escape: '"',
    raw,
    bom: false, // the BOM is skipped before parsing
    encoding: 'utf8',
    // Both endings are accepted; each record's raw text says which one it had.
    record_delimiter: ['\r\n', '\n'],
    skip_empty_lines: false, // csv-parse would glue skipped lines onto the next record's raw text
    relax_column_count: true, // checked by the reader, with a better message
    relax_quotes: true, // a quote inside an unquoted field is kept as a character, as spreadsheets do
    max_record_size: MAX_RECORD,
  };
}

export interface SampleRecord {
  line: number;
  raw: string;
  fields: string[];
}

export interface SampleParse {
  records: SampleRecord[]; // blank lines removed
  /** Set when parsing stopped on an error; `line` is where the failing record starts. */
  error?: { code: string; line: number };
}

/** Removes the record terminator csv-parse leaves in `raw` (`\n`, or the `\r` of `\r\n`). */
export function stripTerminator(raw: string): string {
  const c = raw.charCodeAt(raw.length - 1);
  return c === 10 || c === 13 ? raw.slice(0, -1) : raw;
}

export function isBlankRecord(fields: readonly string[], raw: string): boolean {
  return fields.length === 1 && (raw.length === 0 || raw.trim().length === 0);
}

export function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Whether the record starting at `line` of `text` reaches another line within MAX_RECORD characters. */
export function recordSpansLines(text: string, line: number): boolean {
  let at = 0;
  for (let l = 1; l < line && at !== -1; l++) {
    at = text.indexOf('\n', at);
    if (at !== -1) at++;
  }
  if (at === -1) return false;
  const nl = text.indexOf('\n', at);
  return nl !== -1 && nl - at < MAX_RECORD;
}

export function parseSample(text: string, format: 'csv' | 'lines', delimiter: string, limit = SNIFF_RECORDS): SampleParse {
  const collected: { record: string[]; raw: string }[] = [];
  let failure: { code: string } | undefined;
  try {
    parseSync(text, {
      ...parserOptions(format, delimiter),
      to: limit,
      on_record: (rec: unknown) => {
        collected.push(rec as { record: string[]; raw: string });
        return null;
      },
    });
  } catch (err) {
    failure = { code: typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'UNKNOWN' };
  }
  const records: SampleRecord[] = [];
  let line = 1;
  for (const c of collected) {
    const raw = stripTerminator(c.raw);
    const at = line;
    line += 1 + countNewlines(raw);
    if (!isBlankRecord(c.record, raw)) records.push({ line: at, raw, fields: c.record });
  }
  return failure ? { records, error: { code: failure.code, line } } : { records };
}

function mode(counts: number[]): { value: number; share: number } {
  const freq = new Map<number, number>();
  for (const c of counts) freq.set(c, (freq.get(c) ?? 0) + 1);
  let value = 0;
  let best = 0;
  for (const [v, f] of freq) {
    if (f > best || (f === best && v > value)) {
      value = v;
      best = f;
    }
  }
  return { value, share: counts.length ? best / counts.length : 0 };
}

export interface Sniffed {
  format: 'csv' | 'lines';
  delimiter: string;
  parsed: SampleParse;
}

/**
 * Excel's first line naming the delimiter, `sep=;` (some tools quote it): its text without the line ending, the
 * delimiter, and where the next line starts.
 */
export function excelSepLine(text: string): { line: string; delimiter: string; end: number } | undefined {
  const m = /^("?)sep=([,;\t|])\1(?=\r?\n|$)/i.exec(text);
  if (!m) return undefined;
  const lf = text.indexOf('\n');
  return { line: m[0], delimiter: m[2]!, end: lf < 0 ? text.length : lf + 1 };
}

/**
 * Picks the delimiter whose field count per record is most consistent (ties: more fields, then the order
 * `,` `;` tab `|`). With none splitting records into two or more fields, the input is a plain list of lines,
 * unless every line is wrapped in double quotes (a one-column CSV).
 */
export function sniffFormat(text: string): Sniffed {
  let best: { delimiter: string; share: number; fields: number; parsed: SampleParse } | undefined;
  for (const d of DELIMITERS) {
    const parsed = parseSample(text, 'csv', d);
    const m = mode(parsed.records.map((r) => r.fields.length));
    if (m.value < 2) continue;
    if (!best || m.share > best.share || (m.share === best.share && m.value > best.fields)) {
      best = { delimiter: d, share: m.share, fields: m.value, parsed };
    }
  }
  if (best) return { format: 'csv', delimiter: best.delimiter, parsed: best.parsed };
  const lines = parseSample(text, 'lines', ',');
  const body = lines.records.length > 1 ? lines.records.slice(1) : lines.records;
  const quoted = body.length > 0 && body.every((r) => /^\s*".*"\s*$/s.test(r.raw));
  if (quoted) return { format: 'csv', delimiter: ',', parsed: parseSample(text, 'csv', ',') };
  return { format: 'lines', delimiter: ',', parsed: lines };
}

/** "contains @ with text on both sides" */
const HAS_ADDRESS = /[^\s@]@[^\s@]/;

export function isHeaderRecord(fields: readonly string[], format: 'csv' | 'lines'): boolean {
  if (format === 'lines') return !fields.some((f) => f.includes('@'));
  return !fields.some((f) => HAS_ADDRESS.test(f));
}

/** Header names that mean "the email address", best first, normalised by `normaliseName`. */
const EMAIL_NAMES = [
  'email',
  'emailaddress',
  'emailaddr',
  'emailid',
  'primaryemail',
  'primaryemailaddress',
  'email1value', // Google Contacts "E-mail 1 - Value"
  'email1',
  'emailaddress1',
  'mailaddress',
  'mail',
  'emails',
  'workemail',
  'businessemail',
  'personalemail',
  'homeemail',
  'contactemail',
  'subscriberemail',
  'customeremail',
  'useremail',
  'courriel',
  'adressecourriel',
  'adresseemail',
  'correo',
  'correoelectronico',
  'emailadresse',
  'mailadresse',
  'epost',
  'epostadresse',
];

/** Lower case, letters and digits only: `E-mail 1 - Value` -> `email1value`. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** For --column: case and spaces, `_` and `-` ignored. */
export function normaliseColumnFlag(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

export function columnLabel(header: readonly string[], index: number): string {
  const name = header[index]?.trim();
  return name ? name : `column ${index + 1}`;
}

export function listColumns(header: readonly string[], count: number): string {
  const shown = Math.min(count, 25);
  const names: string[] = [];
  for (let i = 0; i < shown; i++) names.push(columnLabel(header, i));
  return names.join(', ') + (count > shown ? `, and ${count - shown} more` : '');
}

/**
 * The columns an earlier run of mailclean appended (0-based, in order), recognised by all six result names being
 * in the header, plus `email_suggestion` if present; [] otherwise. The writer replaces them with fresh ones.
 */
export function ownColumns(header: readonly string[]): number[] {
  if (!RESULT_COLUMNS.every((name) => header.includes(name))) return [];
  const ours = new Set<string>([...RESULT_COLUMNS, SUGGESTION_COLUMN]);
  return header.flatMap((name, i) => (ours.has(name) ? [i] : []));
}

function addressShare(rows: readonly SampleRecord[], col: number): number {
  let filled = 0;
  let like = 0;
  for (const r of rows) {
    const v = r.fields[col]?.trim();
    if (!v) continue;
    filled++;
    if (HAS_ADDRESS.test(v)) like++; // loose on purpose: malformed addresses still mark the column
  }
  return filled === 0 ? 0 : like / filled;
}

export interface ColumnChoice {
  index: number;
  name: string;
}

/**
 * --column first; then a header naming an email; then a header containing "mail" whose values look like
 * addresses; then the column whose values look most like addresses (more than half of its non-empty cells);
 * a headerless single column is taken as it is.
 */
export function chooseEmailColumn(opts: {
  displayName: string;
  /** Where the header (or the first row) is, for the message when no column is found. */
  line: number;
  header: readonly string[];
  columnCount: number;
  rows: readonly SampleRecord[];
  column?: string;
  /** Columns an earlier run of mailclean appended: never the email column (`email_suggestion` holds addresses). */
  ours?: readonly number[];
}): ColumnChoice {
  const { displayName, header, columnCount, rows } = opts;
  const ours = new Set(opts.ours);
  const hint = 'pass --column NAME or --column N';
  const pick = (index: number): ColumnChoice => ({ index, name: columnLabel(header, index) });
  if (opts.column !== undefined) {
    const flag = opts.column.trim();
    const pickFlagged = (index: number): ColumnChoice => {
      if (!ours.has(index)) return pick(index);
      throw new UsageError(
        `--column ${flag}: ${columnLabel(header, index)} holds the results of an earlier run (they are replaced)`,
        'name the column that holds the addresses',
      );
    };
    if (/^\d+$/.test(flag)) {
      const n = Number(flag);
      if (n < 1 || n > columnCount) {
        throw new UsageError(
          `--column ${flag}: ${displayName} has ${columnCount} column${columnCount === 1 ? '' : 's'} (${listColumns(header, columnCount)})`,
          `pass a number from 1 to ${columnCount}, or a column name`,
        );
      }
      return pickFlagged(n - 1);
    }
    if (header.length === 0) {
      throw new UsageError(
        `--column ${flag}: ${displayName} has no header row, so columns have no names (${listColumns(header, columnCount)})`,
        'pass --column N with a column number',
      );
    }
    const want = normaliseColumnFlag(flag);
    const i = header.findIndex((h) => normaliseColumnFlag(h) === want);
    if (i < 0 || want === '') {
      throw new UsageError(
        `--column ${flag}: no such column in ${displayName} (columns: ${listColumns(header, columnCount)})`,
        'pass one of the column names, or --column N with a number',
      );
    }
    return pickFlagged(i);
  }
  if (header.length > 0) {
    let bestRank = Infinity;
    let bestIndex = -1;
    header.forEach((h, i) => {
      const rank = ours.has(i) ? -1 : EMAIL_NAMES.indexOf(normaliseName(h));
      if (rank >= 0 && rank < bestRank) {
        bestRank = rank;
        bestIndex = i;
      }
    });
    if (bestIndex >= 0) return pick(bestIndex);
    const named = header.findIndex((h, i) => !ours.has(i) && normaliseName(h).includes('mail') && addressShare(rows, i) > 0.5);
    if (named >= 0) return pick(named);
  }
  // A headerless single column: its first value has an address in it, or it would have been taken for a header.
  if (columnCount === 1 && header.length === 0) return pick(0);
  let best = -1;
  let bestShare = 0.5;
  for (let i = 0; i < columnCount; i++) {
    const share = ours.has(i) ? 0 : addressShare(rows, i);
    if (share > bestShare) {
      best = i;
      bestShare = share;
    }
  }
  if (best >= 0) return pick(best);
  throw new UsageError(`${displayName}:${opts.line}: no email column found (columns: ${listColumns(header, columnCount)})`, hint);
}
