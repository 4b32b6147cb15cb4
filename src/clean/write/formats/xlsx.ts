// An Excel workbook (.xlsx), streamed: the list's columns, then the results as typed cells; never a formula.
import type { InputRecord, TypedCell } from '../../scan/input/index.js';
import { msToSerial } from '../../scan/input/workbook/serial.js';
import { RESULT_COLUMNS, type RowFacts, type Verdict, verdictFields } from '../../verdict/verdict.js';
import { byColumn, hasOwnCells, OutputColumns } from './columns.js';
import type { RowSink, SinkContext } from './row-sink.js';
import { KeptPackage } from './xlsx-kept.js';
import { PackageWriter, type SheetPart, StyleTable } from './xlsx-package.js';
import { SHEET_ROWS, SheetXml } from './xlsx-sheet.js';
import { booleanCell, EMPTY_CELL, errorCell, MAX_CELL_TEXT, numberCell, textCell } from './xlsx-xml.js';

const CUT_SHOWN = 5;
const CHECKED_AT = RESULT_COLUMNS.indexOf('email_checked_at');

export function createSink(ctx: SinkContext): RowSink {
  return new XlsxSink(ctx);
}

export class XlsxSink implements RowSink {
  readonly reads = { raw: false, fields: 'all', typed: true } as const;
  private readonly columns: OutputColumns;
  private pack!: PackageWriter | KeptPackage;
  private styles!: StyleTable;
  private dateTime = 0;
  private date = 0;
  private readonly header: string[];
  private readonly done: SheetPart[] = [];
  private readonly cut = { cells: 0, rows: 0, lines: [] as number[], last: -1 };
  private sheet!: SheetXml;
  private readonly made = new WeakMap<Verdict, string>();

  /** `sheetRows`: rows a sheet holds, its header included (Excel's limit; smaller in tests). */
  constructor(
    private readonly ctx: SinkContext,
    private readonly sheetRows = SHEET_ROWS,
  ) {
    this.columns = new OutputColumns(ctx.layout);
    // The input's own header text: JSON keys are made unique (`email_2`), a sheet's header need not be.
    const { layout } = ctx;
    const own = this.columns.columns.map(
      (i, n) => (layout.hasHeader ? layout.header[i] : undefined) ?? this.columns.names[n]!,
    );
    this.header = [...own, ...RESULT_COLUMNS, ...ctx.extras];
  }

  async start(): Promise<void> {
    // A workbook's list goes back into its workbook, every other part kept (xlsx-kept.ts).
    const parts = this.ctx.layout.workbook?.parts;
    const kept = parts && (await KeptPackage.open(parts, this.ctx.stream, this.ctx.layout.displayName));
    this.pack = kept ?? new PackageWriter(this.ctx.stream);
    this.styles = new StyleTable(kept?.base);
    this.dateTime = this.styles.styleOf({ id: 164, code: 'yyyy-mm-dd hh:mm:ss' });
    this.date = this.styles.styleOf({ id: 164, code: 'yyyy-mm-dd' });
    await this.startSheet();
  }

  row(record: InputRecord, verdict: Verdict, facts: RowFacts): Promise<void> | undefined {
    if (this.sheet.rows < this.sheetRows) return this.writeRow(record, verdict, facts);
    return this.endSheet()
      .then(() => this.startSheet())
      .then(() => this.writeRow(record, verdict, facts));
  }

  async end(): Promise<void> {
    await this.endSheet();
    await this.pack.finish(this.done, this.styles);
    const { cells, rows, lines } = this.cut;
    if (cells === 0) return;
    const more = rows > CUT_SHOWN ? `, and ${rows - CUT_SHOWN} more` : '';
    this.ctx.warn(
      `${cells} cell${cells === 1 ? ' was' : 's were'} longer than Excel's 32,767 characters and cut to fit the workbook: ` +
        `line${rows === 1 ? '' : 's'} ${lines.join(', ')}${more} (a CSV or JSON output keeps them whole)`,
    );
  }

  private startSheet(): Promise<void> | undefined {
    this.sheet = new SheetXml(this.pack.sheet(this.done.length + 1));
    const cells = this.header.map((h) => textCell(h, this.styles.header));
    return this.sheet.row(cells.join(''), () => this.header.map((h) => h.length));
  }

  private async endSheet(): Promise<void> {
    await this.sheet.end();
    const { sheet, range } = { sheet: this.ctx.layout.workbook?.sheet ?? 'Cleaned', range: this.sheet.range };
    const n = this.done.length + 1;
    this.done.push({ name: n === 1 ? sheet : numbered(sheet, n), range });
  }

  private writeRow(record: InputRecord, verdict: Verdict, facts: RowFacts): Promise<void> | undefined {
    const { fields, line } = record;
    const typed = record.cells && byColumn(record.cells);
    const own = this.columns.columns;
    let xml = '';
    for (const i of own) xml += this.cell(fields[i] ?? '', typed?.get(i), line);
    xml += this.results(verdict, facts);
    for (let i = this.ctx.layout.columnCount; i < fields.length; i++) xml += this.cell(fields[i]!, typed?.get(i), line);
    // The first rows' text lengths give the columns' widths.
    return this.sheet.row(xml, () => {
      const values = [
        ...own.map((i) => fields[i] ?? ''),
        ...Object.values(verdictFields(verdict, this.ctx.extras, facts)),
      ];
      return values.map((v, i) => (i === own.length + CHECKED_AT && v ? 19 : String(v ?? '').length));
    });
  }

  private results(verdict: Verdict, facts: RowFacts): string {
    const shared = !hasOwnCells(verdict, facts);
    let xml = shared ? this.made.get(verdict) : undefined;
    if (xml === undefined) {
      xml = Object.values(verdictFields(verdict, this.ctx.extras, facts))
        .map((value, i) => {
          if (i !== CHECKED_AT || typeof value !== 'string' || Number.isNaN(Date.parse(value))) return this.cell(value);
          return numberCell(msToSerial(Date.parse(value)), this.dateTime);
        })
        .join('');
      if (shared) this.made.set(verdict, xml);
    }
    return xml;
  }

  private cell(value: string | boolean | null, typed?: TypedCell, line = 0): string {
    if (value === null || value === '') return EMPTY_CELL;
    if (typeof value === 'boolean') return booleanCell(value);
    if (typed) return this.typedCell(value, typed);
    if (value.length > MAX_CELL_TEXT) {
      const cut = this.cut;
      cut.cells++;
      if (cut.last !== line && cut.rows++ < CUT_SHOWN) cut.lines.push(line);
      cut.last = line;
      value = value.slice(0, MAX_CELL_TEXT);
    }
    return textCell(value);
  }

  private typedCell(text: string, [, kind, format, value]: TypedCell): string {
    if (kind === 'b') return booleanCell(text === 'TRUE');
    if (kind === 'e') return errorCell(text);
    const own = this.ctx.layout.workbook?.formats[format];
    // A date without a date format (an ISO date cell) gets one, or Excel would show its serial number.
    const style =
      own && format !== 0
        ? this.styles.styleOf(own)
        : kind === 'd'
          ? text.includes(' ')
            ? this.dateTime
            : this.date
          : 0;
    return numberCell(value ?? text, style);
  }
}

function numbered(name: string, n: number): string {
  const suffix = ` (${n})`;
  return name.slice(0, 31 - suffix.length) + suffix;
}
