// One sheet's XML as its rows come: the header frozen, widths from the first rows, an autofilter over the range.
import type { Writable } from 'node:stream';
import { ChunkedWriter } from '../atomic-file.js';
import { SHEET_HEAD } from './xlsx-package.js';
import { columnName } from './xlsx-xml.js';

export const SHEET_ROWS = 1_048_576;
/** Rows looked at for the column widths, kept back until then. */
const MEASURED_ROWS = 100;

export class SheetXml {
  private readonly writer: ChunkedWriter;
  private widths: number[] = [];
  private held: string[] | undefined = [];
  private columns = 0;
  rows = 0;

  constructor(stream: Writable) {
    this.writer = new ChunkedWriter(stream);
  }

  row(cells: string, lengths: () => readonly number[]): Promise<void> | undefined {
    const n = ++this.rows;
    const xml = `<row r="${n}">${cells}</row>`;
    if (this.held) {
      const measured = lengths();
      this.columns = Math.max(this.columns, measured.length);
      measured.forEach((length, i) => {
        this.widths[i] = Math.max(this.widths[i] ?? 0, length);
      });
      this.held.push(xml);
      if (this.held.length >= MEASURED_ROWS) return this.release();
      return undefined;
    }
    return this.writer.push(xml);
  }

  get range(): string {
    return `A1:${columnName(Math.max(this.columns, 1) - 1)}${Math.max(this.rows, 1)}`;
  }

  async end(): Promise<void> {
    await this.release();
    this.writer.append(`</sheetData><autoFilter ref="${this.range}"/></worksheet>`);
    await this.writer.end();
  }

  private release(): Promise<void> | undefined {
    const held = this.held;
    if (!held) return undefined;
    this.held = undefined;
    const cols = this.widths.map(
      (w, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(Math.max(w, 8), 60) + 2}" customWidth="1"/>`,
    );
    const view =
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    this.writer.append(`${SHEET_HEAD}${view}${cols.length ? `<cols>${cols.join('')}</cols>` : ''}<sheetData>`);
    for (const row of held) this.writer.append(row);
    return this.writer.flushIfFull();
  }
}
