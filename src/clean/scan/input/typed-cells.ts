// A workbook's cells that are not text, a line a spooled row (`ROW` or `ROW<tab>[cells as JSON]`): a workbook written
// back keeps its numbers, dates and booleans, and messages name the sheet's own rows.
import { createReadStream, type ReadStream } from 'node:fs';

export type CellKind = 'n' | 'd' | 'b' | 'e';

export type TypedCell = [column: number, kind: CellKind, format: number, value?: number | string];

export function cellsLine(row: number, cells: readonly TypedCell[]): string {
  return cells.length === 0 ? `${row}\n` : `${row}\t${JSON.stringify(cells)}\n`;
}

export interface RowCells {
  row: number;
  cells?: TypedCell[];
}

export class CellsReader {
  private readonly stream: ReadStream;
  private readonly chunks: AsyncIterator<string>;
  private lines: string[] = [];
  private next = 0;
  private rest = '';
  private done = false;

  constructor(file: string) {
    this.stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    this.chunks = (this.stream as AsyncIterable<string>)[Symbol.asyncIterator]();
  }

  async ensure(count: number): Promise<void> {
    while (this.lines.length - this.next < count && !this.done) {
      const chunk = await this.chunks.next();
      if (chunk.done) {
        this.done = true;
        if (this.rest) this.lines.push(this.rest);
        break;
      }
      const parts = (this.rest + chunk.value).split('\n');
      this.rest = parts.pop()!;
      this.lines = this.next < this.lines.length ? [...this.lines.slice(this.next), ...parts] : parts;
      this.next = 0;
    }
  }

  take(typed: boolean): RowCells | undefined {
    const line = this.lines[this.next++];
    if (line === undefined) return undefined;
    const tab = line.indexOf('\t');
    if (tab < 0) return { row: Number(line) };
    const row = Number(line.slice(0, tab));
    return typed ? { row, cells: JSON.parse(line.slice(tab + 1)) as TypedCell[] } : { row };
  }

  close(): void {
    this.stream.destroy();
  }
}
