// A sample with no double quote in it, split into csv-parse's records without csv-parse, which is slow to start
// cold once per delimiter tried. A test holds it to csv-parse.

/** A record as csv-parse's `on_record` gives it with `raw`: the fields, and the text with csv-parse's terminator. */
export interface RawRecord {
  record: string[];
  raw: string;
}

/**
 * The first `limit` records of `text` as csv-parse gives them, or undefined where csv-parse must say: a quote in a
 * CSV, a CR that does not end a line, a record near its size limit (`maxRecord` characters).
 */
export function plainRecords(
  text: string,
  format: 'csv' | 'lines',
  delimiter: string,
  limit: number,
  maxRecord: number,
): RawRecord[] | undefined {
  if (format === 'csv' && text.includes('"')) return undefined;
  const records: RawRecord[] = [];
  for (let start = 0; start < text.length && records.length < limit; ) {
    const lf = text.indexOf('\n', start);
    const end = lf < 0 ? text.length : lf;
    const crlf = lf > start && text.charCodeAt(lf - 1) === 13;
    const line = text.slice(start, crlf ? end - 1 : end);
    if (line.length >= maxRecord - 2 || line.includes('\r')) return undefined;
    // csv-parse's raw text keeps the LF of a lone LF, and of a CRLF only the CR.
    const raw = lf < 0 ? line : `${line}${crlf ? '\r' : '\n'}`;
    records.push({ record: format === 'lines' ? [line] : line.split(delimiter), raw });
    start = lf < 0 ? text.length : lf + 1;
  }
  return records;
}
