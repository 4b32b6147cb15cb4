// CSV in the list's delimiter and line endings: every row as it came, its results after; no result is a formula.

import { RESULT_COLUMNS, type RowFacts, type Verdict, verdictCells } from '../../verdict/verdict.js';
import { ChunkedWriter } from '../atomic-file.js';
import { hasOwnCells, OutputColumns } from './columns.js';
import { looksLikeFormula, neutralise } from './formula-guard.js';
import { fieldsEnd } from './raw-fields.js';
import type { RowSink, SinkContext } from './row-sink.js';

export function createSink({ layout, extras, stream, escapeFormulas, replacesAddress }: SinkContext): RowSink {
  const writer = new ChunkedWriter(stream);
  // A list of bare addresses becomes a CSV with the header it had (else `email`).
  const delimiter = layout.format === 'lines' ? ',' : layout.delimiter;
  const eol = layout.lineEnding;
  const columns = new OutputColumns(layout);
  const cell = escapeFormulas ? (f: string) => safeQuote(f, delimiter) : (f: string) => quote(f, delimiter);
  const serialise = (fields: readonly string[]) => columns.columns.map((i) => cell(fields[i] ?? '')).join(delimiter);
  // Rows go out as their bytes unless an earlier run's columns must be left out or cells neutralised.
  const rebuild = columns.rebuild || escapeFormulas;
  const results = new ResultCells(delimiter, extras, eol);
  const width = layout.columnCount;
  const rawAs = layout.format === 'lines' || rebuild ? true : 'bytes';
  return {
    // A row whose address a fix replaced (--fix-typos=replace) is rebuilt from its fields, the others kept as bytes.
    reads: { raw: rawAs, fields: rebuild || replacesAddress ? 'all' : 'email' },
    start: () => writer.write(headerText(layout, extras, delimiter, rebuild ? serialise : undefined)),
    row(record, verdict, facts) {
      const { fields } = record;
      // A longer row's fields past the header's go after the results, so every result stands under its name.
      let extra: string | Uint8Array | undefined;
      if (layout.format === 'lines') writer.append(cell(facts.original === undefined ? record.raw : fields[0]!));
      else if (rebuild || facts.original !== undefined) {
        writer.append(serialise(fields));
        if (fields.length > width) extra = fields.slice(width).map(cell).join(delimiter);
      } else {
        const raw = record.rawBytes ?? record.raw;
        const end = fields.length > width ? fieldsEnd(raw, width, delimiter) : raw.length;
        if (typeof raw === 'string') writer.append(end < raw.length ? raw.slice(0, end) : raw);
        else writer.appendBytes(end < raw.length ? raw.subarray(0, end) : raw);
        if (fields.length < width) writer.append(delimiter.repeat(width - fields.length));
        if (end < raw.length) extra = typeof raw === 'string' ? raw.slice(end + 1) : raw.subarray(end + 1);
      }
      // Nearly every row: its results and the line ending, as one run of bytes made once per verdict.
      results.append(writer, verdict, facts, extra === undefined);
      if (extra !== undefined) {
        writer.append(delimiter);
        if (typeof extra === 'string') writer.append(extra);
        else writer.appendBytes(extra);
        writer.append(eol);
      }
      return writer.flushIfFull();
    },
    end: () => writer.flush(),
  };
}

/** A row's result cells, never a formula; made once a verdict as bytes unless they depend on the row. */
class ResultCells {
  private readonly made = new WeakMap<Verdict, Buffer>();
  private readonly eolBytes: number;

  constructor(
    private readonly delimiter: string,
    private readonly extras: SinkContext['extras'],
    private readonly eol: string,
  ) {
    this.eolBytes = Buffer.byteLength(eol);
  }

  append(writer: ChunkedWriter, verdict: Verdict, facts: RowFacts, endLine: boolean): void {
    if (hasOwnCells(verdict, facts)) {
      writer.append(this.text(verdict, facts));
      if (endLine) writer.append(this.eol);
      return;
    }
    let line = this.made.get(verdict);
    if (line === undefined) this.made.set(verdict, (line = Buffer.from(this.text(verdict, facts) + this.eol)));
    // A row longer than the header (rare) has its extra fields after the cells, then the line ending.
    writer.appendBytes(endLine ? line : line.subarray(0, line.length - this.eolBytes));
  }

  private text(verdict: Verdict, facts: RowFacts): string {
    const d = this.delimiter;
    return `${d}${verdictCells(verdict, this.extras, facts)
      .map((c) => safeQuote(c, d))
      .join(d)}`;
  }
}

function headerText(
  layout: SinkContext['layout'],
  extras: SinkContext['extras'],
  delimiter: string,
  rebuild?: (fields: readonly string[]) => string,
): string {
  const eol = layout.lineEnding;
  const names = [...RESULT_COLUMNS, ...extras].join(delimiter);
  // Excel's `sep=` line stays first, so Excel still splits the columns as before.
  const prefix = `${writesBom(layout) ? '\uFEFF' : ''}${layout.sepLine !== undefined ? layout.sepLine + eol : ''}`;
  if (layout.format === 'lines') {
    const header = layout.hasHeader ? quote(layout.headerRaw ?? '', delimiter) : 'email';
    return `${prefix}${header}${delimiter}${names}${eol}`;
  }
  if (!layout.hasHeader) return prefix;
  const header = rebuild ? rebuild(layout.header) : (layout.headerRaw ?? '');
  return `${prefix}${header}${delimiter}${names}${eol}`;
}

// Per cell this runs millions of times; csv-stringify's per-call setup would cost more than the rule itself.
export function quote(value: string, delimiter: string): string {
  if (value.includes(delimiter) || value.includes('"') || value.includes('\n') || value.includes('\r')) {
    return `"${value.replace(/"/g, '""')}"`;
  }
  return value;
}

/** A cell that would start a formula, as OWASP advises: a single quote before it, the whole in double quotes. */
export function safeQuote(value: string, delimiter: string): string {
  return looksLikeFormula(value) ? `"${neutralise(value).replace(/"/g, '""')}"` : quote(value, delimiter);
}

/** A BOM when the list had one, or came from Excel, which reads UTF-8 without one as the system's code page. */
function writesBom(layout: SinkContext['layout']): boolean {
  return layout.bom || layout.encoding !== 'utf-8' || layout.workbook !== undefined;
}
