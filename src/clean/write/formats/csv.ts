// CSV (the input's delimiter and line endings): every row as it came in, the result columns appended.

import { RESULT_COLUMNS, type RowFacts, type Verdict, verdictCells } from '../../verdict/verdict.js';
import { ChunkedWriter } from '../atomic-file.js';
import { OutputColumns } from './columns.js';
import type { RowSink, SinkContext } from './row-sink.js';

export function createSink({ layout, extras, stream }: SinkContext): RowSink {
  const writer = new ChunkedWriter(stream);
  // A list of bare addresses becomes a CSV with an `email` column.
  const delimiter = layout.format === 'lines' ? ',' : layout.delimiter;
  const eol = layout.lineEnding;
  const columns = new OutputColumns(layout);
  const serialise = (fields: readonly string[]) =>
    columns.columns.map((i) => quote(fields[i] ?? '', delimiter)).join(delimiter);
  /**
   * The row as it came in. A shorter row gets empty fields up to the header's width, so its results stand under
   * their names; a longer one keeps its extra fields, and its results follow them.
   */
  const original = (raw: string, fields: string[]) => {
    if (layout.format === 'lines') return quote(raw, delimiter);
    if (columns.rebuild)
      return [serialise(fields), ...fields.slice(layout.columnCount).map((f) => quote(f, delimiter))].join(delimiter);
    const missing = layout.columnCount - fields.length;
    return missing > 0 ? raw + delimiter.repeat(missing) : raw;
  };
  const cells = (verdict: Verdict, facts: RowFacts) =>
    verdictCells(verdict, extras, facts)
      .map((c) => quote(c, delimiter))
      .join(delimiter);
  // Rows share verdict objects (one per distinct answer), so each one's cells are made once, as bytes with the
  // delimiter before and the line ending after, unless they depend on the row: the address inside its cell, or its
  // kind when the verdict does not carry it (the service's).
  const made = new WeakMap<Verdict, Buffer>();
  const results = (verdict: Verdict, facts: RowFacts): string | Buffer => {
    if (facts.checked !== undefined || (verdict.free === undefined && facts.key !== undefined))
      return `${delimiter}${cells(verdict, facts)}${eol}`;
    let bytes = made.get(verdict);
    if (bytes === undefined) made.set(verdict, (bytes = Buffer.from(`${delimiter}${cells(verdict, facts)}${eol}`)));
    return bytes;
  };
  const rawAs = layout.format === 'lines' || columns.rebuild ? true : 'bytes';
  return {
    // Rows go out as they came in (their bytes, where the reader can give them), unless an earlier run's columns
    // must be left out of them.
    reads: { raw: rawAs, fields: columns.rebuild ? 'all' : 'email' },
    start: () => writer.write(headerText(layout, extras, delimiter, columns.rebuild ? serialise : undefined)),
    row(raw, fields, verdict, facts) {
      if (typeof raw === 'string') writer.append(original(raw, fields));
      else {
        writer.appendBytes(raw);
        if (fields.length < layout.columnCount) writer.append(delimiter.repeat(layout.columnCount - fields.length));
      }
      const tail = results(verdict, facts);
      if (typeof tail === 'string') writer.append(tail);
      else writer.appendBytes(tail);
      return writer.flushIfFull();
    },
    end: () => writer.flush(),
  };
}

/** What comes before the rows: a BOM, Excel's `sep=` line, the header (`rebuild`: without an earlier run's columns). */
function headerText(
  layout: SinkContext['layout'],
  extras: SinkContext['extras'],
  delimiter: string,
  rebuild?: (fields: readonly string[]) => string,
): string {
  const eol = layout.lineEnding;
  const names = [...RESULT_COLUMNS, ...extras].join(delimiter);
  if (layout.format === 'lines') return `email${delimiter}${names}${eol}`;
  // Excel's `sep=` line stays first, so Excel still splits the columns as before.
  const prefix = `${writesBom(layout) ? '\uFEFF' : ''}${layout.sepLine !== undefined ? layout.sepLine + eol : ''}`;
  if (!layout.hasHeader) return prefix;
  const header = rebuild ? rebuild(layout.header) : (layout.headerRaw ?? '');
  return `${prefix}${header}${delimiter}${names}${eol}`;
}

// Per cell this runs millions of times; csv-stringify's per-call setup would cost more than the rule itself.
function quote(value: string, delimiter: string): string {
  if (value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r')) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return value;
}

/**
 * The CSV output is UTF-8. It starts with a BOM when the input had one, or was in another encoding: such a file
 * came from Excel, which reads UTF-8 without a BOM as the system's code page (Zoë becomes ZoÃ«).
 */
function writesBom(layout: SinkContext['layout']): boolean {
  return layout.bom || layout.encoding !== 'utf-8';
}
