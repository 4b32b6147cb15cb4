// A sample with no double quote in it, split into csv-parse's records without csv-parse, which is slow to start
// cold once per delimiter tried. A test holds it to csv-parse.

export interface RawRecord {
  record: string[];
  raw: string;
}

/** csv-parse's first `limit` records, or undefined for a quote, a lone CR or a record near `maxRecord`. */
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
