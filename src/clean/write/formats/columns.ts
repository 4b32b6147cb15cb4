// The input columns an output carries (all but an earlier run's results) and their names as object keys.
import type { InputLayout, TypedCell } from '../../scan/input/index.js';
import { serialText } from '../../scan/input/workbook/serial.js';
import { EXTRA_COLUMNS, RESULT_COLUMNS, type RowFacts, type Verdict } from '../../verdict/verdict.js';

const RESULT_NAMES = new Set<string>([...RESULT_COLUMNS, ...Object.keys(EXTRA_COLUMNS)]);

/** A cell's value for JSON: a workbook's numbers and booleans as such, everything else as its text. */
export type JsonValue = string | number | boolean | null;

export class OutputColumns {
  readonly columns: number[];
  readonly names: string[];
  /** The input holds an earlier run's results: its rows are rebuilt without them, so cannot go out byte for byte. */
  readonly rebuild: boolean;
  private readonly extraNames: string[] = [];

  constructor(private readonly layout: InputLayout) {
    const ours = new Set(layout.ownColumns);
    const names = keysOf(layout);
    this.columns = names.flatMap((_, i) => (ours.has(i) ? [] : [i]));
    this.names = this.columns.map((i) => names[i]!);
    this.rebuild = ours.size > 0;
  }

  object(fields: string[], cells?: readonly TypedCell[]): Record<string, JsonValue> {
    const typed = cells && byColumn(cells);
    const object: Record<string, JsonValue> = {};
    this.columns.forEach((column, i) => {
      const field = fields[column];
      object[this.names[i]!] = field === undefined ? null : jsonValue(field, typed?.get(column));
    });
    return object;
  }

  extra(fields: string[], cells?: readonly TypedCell[]): Record<string, JsonValue> | undefined {
    if (fields.length <= this.layout.columnCount) return undefined;
    const typed = cells && byColumn(cells);
    const object: Record<string, JsonValue> = {};
    for (let i = this.layout.columnCount; i < fields.length; i++)
      object[this.extraName(i)] = jsonValue(fields[i]!, typed?.get(i));
    return object;
  }

  private extraName(index: number): string {
    let name = this.extraNames[index];
    if (name === undefined) {
      const base = `column_${index + 1}`;
      name = base;
      for (let n = 2; this.names.includes(name) || RESULT_NAMES.has(name); n++) name = `${base}_${n}`;
      this.extraNames[index] = name;
    }
    return name;
  }
}

/** A row whose result cells cannot be shared with the other rows of its verdict (a sink makes those once). */
export function hasOwnCells(verdict: Verdict, row: RowFacts): boolean {
  return row.checked !== undefined || row.fixed !== undefined || (verdict.free === undefined && row.key !== undefined);
}

export function byColumn(cells: readonly TypedCell[]): Map<number, TypedCell> {
  return new Map(cells.map((cell) => [cell[0], cell]));
}

function jsonValue(text: string, cell: TypedCell | undefined): JsonValue {
  if (cell?.[1] === 'n') return Number(cell[3] ?? text);
  if (cell?.[1] === 'b') return text === 'TRUE';
  if (cell?.[1] === 'd' && typeof cell[3] === 'number' && !ISO.test(text)) return isoOfSerial(cell[3]);
  return text;
}

/** A date or time shown as the sheet formats it; in JSON it is written in ISO order, which programs read. */
const ISO = /^(\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d)/;

/** A whole day is a date, less than a day a time of day, the rest a date and time. */
function isoOfSerial(serial: number): string {
  return serialText(serial, Number.isInteger(serial) ? 'date' : serial < 1 ? 'time' : 'datetime', false);
}

/** Keys: the header names (made unique), `email` for a bare list without a header, else column_1, column_2, ... */
function keysOf(layout: InputLayout): string[] {
  if (layout.format === 'lines') return [(layout.hasHeader && layout.header[0]) || 'email'];
  const base = layout.hasHeader
    ? layout.header
    : Array.from({ length: layout.columnCount }, (_, i) => `column_${i + 1}`);
  const seen = new Map<string, number>();
  return base.map((name, i) => {
    const clean = name.trim() || `column_${i + 1}`;
    const count = (seen.get(clean) ?? 0) + 1;
    seen.set(clean, count);
    return count === 1 ? clean : `${clean}_${count}`;
  });
}
