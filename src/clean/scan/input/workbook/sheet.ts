// One sheet's rows as they stream: each cell's text as Excel shows it and, where it is not text, its type.
import { UsageError } from '../../../../errors.js';
import type { TypedCell } from '../typed-cells.js';
import type { WorkbookPackage } from './package.js';
import { DAYS_1900_TO_1904, msToSerial, numberText, serialText } from './serial.js';
import type { SharedStrings } from './shared-strings.js';
import type { shownText } from './shown.js';
import type { NumberFormat, Styles } from './styles.js';
import { CellText } from './text.js';

export const MAX_COLUMNS = 16_384;

export interface SheetRow {
  row: number;
  fields: string[];
  typed: TypedCell[];
}

export interface SheetContext {
  pkg: WorkbookPackage;
  path: string;
  where: string;
  strings: SharedStrings;
  styles: Styles;
  date1904: boolean;
  /** A number as its format shows it (shown.ts); undefined keeps the stored value (--raw-values). */
  shown?: typeof shownText;
  formatIndex(format: NumberFormat): number;
  afterChunk?(): Promise<void> | undefined;
  signal?: AbortSignal;
}

interface CellState {
  column: number;
  type: string;
  style: number;
  formula: boolean;
}

export async function readSheet(
  ctx: SheetContext,
  onRow: (row: SheetRow) => void,
): Promise<{ formulasWithoutResult: number }> {
  const value = new CellText(`${ctx.where}: a cell`);
  let row: SheetRow | undefined;
  let rowNumber = 0;
  let cell: CellState | undefined;
  let inline = false;
  let phonetic = 0;
  let nextColumn = 0;
  let formulasWithoutResult = 0;
  const finishCell = () => {
    const c = cell!;
    cell = undefined;
    nextColumn = c.column + 1;
    const text = value.value();
    // A formula saved without its result (openpyxl writes an empty value); an empty text result is a result.
    if (c.formula && text === '' && c.type !== 'str') formulasWithoutResult++;
    if (text !== '' && row) cellValue(ctx, row, c, text);
  };
  await ctx.pkg.parse(
    ctx.path,
    {
      open(name, attributes) {
        if (name === 'row') {
          // A sheet's own attributes are in no namespace: read directly, as millions of cells are.
          const r = Number(attributes.r);
          rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
          row = { row: rowNumber, fields: [], typed: [] };
          nextColumn = 0;
        } else if (name === 'c') {
          const ref = attributes.r;
          const column = ref === undefined ? nextColumn : columnOf(ref, ctx.where);
          const style = attributes.s === undefined ? 0 : Number(attributes.s);
          cell = { column, type: attributes.t ?? 'n', style, formula: false };
          value.reset();
          inline = false;
        } else if (cell && name === 'f') cell.formula = true;
        else if (cell && name === 'v') value.collecting = true;
        else if (cell && name === 'is') inline = true;
        else if (name === 'rPh') phonetic++;
        else if (inline && name === 't' && phonetic === 0) value.collecting = true;
      },
      close(name) {
        if (name === 'v' || name === 't') value.collecting = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'c' && cell) finishCell();
        else if (name === 'row' && row) {
          if (row.fields.length > 0) onRow(row);
          row = undefined;
        }
      },
      text: (t) => value.add(t),
      afterChunk: ctx.afterChunk,
    },
    ctx.signal,
  );
  return { formulasWithoutResult };
}

function columnOf(ref: string, where: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    column = column * 26 + (c - 0x60);
  }
  if (i === 0 || column > MAX_COLUMNS)
    throw new UsageError(`${where}: a cell at ${ref.slice(0, 20)}, beyond column XFD`);
  return column - 1;
}

type CellValue = [text: string, typed?: TypedCell];

function cellValue(ctx: SheetContext, row: SheetRow, cell: CellState, raw: string): void {
  const [text, typed] = readValue(ctx, row, cell, raw);
  while (row.fields.length < cell.column) row.fields.push('');
  row.fields[cell.column] = text;
  if (typed) row.typed.push(typed);
}

function readValue(ctx: SheetContext, row: SheetRow, cell: CellState, raw: string): CellValue {
  switch (cell.type) {
    case 's': {
      const text = ctx.strings.get(Number(raw));
      if (text === undefined) throw new UsageError(`${ctx.where}: row ${row.row} refers to a missing shared string`);
      return [text];
    }
    case 'inlineStr':
    case 'str':
      return [raw];
    case 'b':
      return [raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE', [cell.column, 'b', 0]];
    case 'e':
      return [raw, [cell.column, 'e', 0]];
    case 'd':
      return dateCell(ctx, cell, raw);
    default:
      return numberCell(ctx, cell, raw);
  }
}

function numberCell(ctx: SheetContext, cell: CellState, raw: string): CellValue {
  const number = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(number)) return [raw];
  const style = ctx.styles.formats[cell.style];
  const format = style ? ctx.formatIndex(style.format) : 0;
  const shown = style && ctx.shown?.(number, style.format, ctx.date1904, style.date !== undefined);
  if (style?.date) {
    // Written back in the 1900 system, which every workbook mailclean writes uses.
    const serial = ctx.date1904 ? number + DAYS_1900_TO_1904 : number;
    return [shown ?? serialText(number, style.date, ctx.date1904), [cell.column, 'd', format, serial]];
  }
  // The typed cell carries the stored value wherever the text shown is not it (a workbook written back keeps it).
  const text = shown ?? numberText(number);
  return [text, text === raw ? [cell.column, 'n', format] : [cell.column, 'n', format, raw]];
}

/** A cell typed `d` holds an ISO 8601 date itself (strict OOXML, some writers). */
function dateCell(ctx: SheetContext, cell: CellState, raw: string): CellValue {
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(raw) || !raw.includes('T') ? raw : `${raw}Z`);
  if (Number.isNaN(ms)) return [raw];
  const serial = msToSerial(ms);
  const style = ctx.styles.formats[cell.style];
  const shape = style?.date ?? (raw.includes('T') ? 'datetime' : 'date');
  const format = style ? ctx.formatIndex(style.format) : 0;
  const shown = style && ctx.shown?.(serial, style.format, false, true);
  return [shown ?? serialText(serial, shape, false), [cell.column, 'd', format, serial]];
}
