import type { Options } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { plainRecords, type RawRecord } from './plain-sample.js';

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export const SNIFF_RECORDS = 200;
export const MAX_RECORD = 1 << 20;

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
  error?: { code: string; line: number };
}

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

export function parseSample(
  text: string,
  format: 'csv' | 'lines',
  delimiter: string,
  limit = SNIFF_RECORDS,
): SampleParse {
  const plain = plainRecords(text, format, delimiter, limit, MAX_RECORD);
  const collected: RawRecord[] = plain ?? [];
  let failure: { code: string } | undefined;
  if (!plain)
    try {
      parseSync(text, {
        ...parserOptions(format, delimiter),
        to: limit,
        on_record: (rec: unknown) => {
          collected.push(rec as RawRecord);
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

/** Excel's first line naming the delimiter, `sep=;` (some tools quote it). */
export function excelSepLine(text: string): { line: string; delimiter: string; end: number } | undefined {
  const m = /^("?)sep=([,;\t|])\1(?=\r?\n|$)/i.exec(text);
  if (!m) return undefined;
  const lf = text.indexOf('\n');
  return { line: m[0], delimiter: m[2]!, end: lf < 0 ? text.length : lf + 1 };
}

/** The delimiter whose field count is most consistent (ties: more fields); else lines, unless all are quoted. */
export function sniffFormat(text: string): Sniffed {
  let best: { delimiter: string; share: number; fields: number; parsed: SampleParse } | undefined;
  for (const d of DELIMITERS) {
    // Absent from the text, a delimiter splits no record: parsing cannot pick it.
    if (!text.includes(d)) continue;
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

export const HAS_ADDRESS = /[^\s@]@[^\s@]/;

export function isHeaderRecord(fields: readonly string[], format: 'csv' | 'lines'): boolean {
  if (format === 'lines') return !fields.some((f) => f.includes('@'));
  return !fields.some((f) => HAS_ADDRESS.test(f));
}
