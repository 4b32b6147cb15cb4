// A list written again with some of its cells set: to a file beside it, renamed over it when whole. A row nothing
// changes keeps its bytes; a row whose cells change is written again field by field, as `clean` writes a row.
import { closeSync, openSync, readSync } from 'node:fs';
import type { InputLayout } from '../clean/scan/input/index.js';
import { readRecordBatches } from '../clean/scan/input/index.js';
import { AtomicFile, ChunkedWriter, OutputError } from '../clean/write/atomic-file.js';
import { quote, safeQuote } from '../clean/write/formats/csv.js';
import { resolveOutputPath } from '../clean/write/output-path.js';
import { typedOf } from './list.js';

/** Cells to set in some rows, by column name. */
export interface ListChange {
  /** Every column the change may set; those the header lacks are appended to it, empty in the rows not set. */
  columns: readonly string[];
  /** The cells of one row (its place among the rows, its fields, the address it holds), or nothing to change. */
  cells(row: number, fields: readonly string[], typed: string): Readonly<Record<string, string>> | undefined;
}

/** Checks that `path` can be replaced, before a person spends time on decisions that could not be written. */
export function checkWritable(path: string): void {
  resolveOutputPath('review', path);
}

export async function rewriteList(layout: InputLayout, change: ListChange): Promise<void> {
  const target = resolveOutputPath('review', layout.file);
  const file = new AtomicFile(target);
  const writer = new ChunkedWriter(file.stream);
  try {
    await file.ready();
    const rows = new RowWriter(layout, change);
    await writer.write(rows.head());
    let row = 0;
    for await (const batch of readRecordBatches(layout)) {
      for (const record of batch) await writer.push(rows.line(row++, record.fields, record.raw) + record.eol);
    }
    await writer.flush();
    await file.commit();
  } catch (error) {
    file.abort();
    throw new OutputError(layout.displayName, error);
  }
}

class RowWriter {
  private readonly width: number;
  private readonly added: string[];
  private readonly index: Map<string, number>;

  constructor(
    private readonly layout: InputLayout,
    private readonly change: ListChange,
  ) {
    this.width = layout.header.length;
    this.added = change.columns.filter((name) => !layout.header.includes(name));
    this.index = new Map(layout.header.map((name, i) => [name, i]));
  }

  /** What comes before the rows: the BOM and Excel's `sep=` line as they were, then the header. */
  head(): string {
    const { layout } = this;
    const before = Buffer.alloc(layout.bodyOffset);
    const fd = openSync(layout.file, 'r');
    try {
      readSync(fd, before, 0, before.length, 0);
    } finally {
      closeSync(fd);
    }
    const header =
      layout.format === 'csv' && layout.headerRaw !== undefined
        ? layout.headerRaw
        : layout.header.map((name) => quote(name, layout.delimiter)).join(layout.delimiter);
    const extra = this.added.map((name) => layout.delimiter + quote(name, layout.delimiter)).join('');
    return `${before.toString('utf8')}${header}${extra}${layout.lineEnding}`;
  }

  line(row: number, fields: string[], raw: string): string {
    const { delimiter } = this.layout;
    const cells = this.change.cells(row, fields, typedOf(this.layout, fields)) ?? {};
    const appended = this.added.map((name) => delimiter + safeQuote(cells[name] ?? '', delimiter)).join('');
    const set = Object.entries(cells).filter(([name, value]) => {
      const at = this.index.get(name);
      return at !== undefined && (fields[at] ?? '') !== value;
    });
    // A list of bare addresses (one column, no quoting) becomes a CSV: its cells are quoted as CSV's are.
    if (set.length === 0 && fields.length === this.width && this.layout.format === 'csv') return raw + appended;
    const own = fields.slice(0, this.width).map((field) => quote(field, delimiter));
    while (own.length < this.width) own.push('');
    for (const [name, value] of set) own[this.index.get(name)!] = safeQuote(value, delimiter);
    // A longer row's fields past the header's stay after every named cell, as `clean` writes them.
    const beyond = fields.slice(this.width).map((field) => delimiter + quote(field, delimiter));
    return own.join(delimiter) + appended + beyond.join('');
  }
}
