import { type InputLayout, readRecordBatches } from './input/index.js';
import { prefilter } from './prefilter.js';

/** How many line numbers of ragged rows are kept to show. */
export const RAGGED_LINES_KEPT = 10;

export interface ScanResult {
  rows: number;
  /** Rows without an address to check: an empty email cell, or none (a row that ends before it). */
  blank: number;
  invalid: number;
  duplicates: number;
  /** Unique addresses in order of first appearance. */
  unique: Set<string>;
  /** Rows whose address was taken from inside the cell (`Name <address>`, mailto:, ` ::: `). */
  extracted: number;
  /** Rows with more or fewer fields than the header (or the first row), and the first of their lines. */
  ragged: { rows: number; lines: number[] };
}

/** Pass 1: every row read once; only the unique addresses are kept. */
export async function scanInput(layout: InputLayout, onRows?: (rows: number) => void, signal?: AbortSignal): Promise<ScanResult> {
  const result: ScanResult = { rows: 0, blank: 0, invalid: 0, duplicates: 0, unique: new Set(), extracted: 0, ragged: { rows: 0, lines: [] } };
  const { emailColumn: column, columnCount } = layout;
  const unique = result.unique;
  for await (const batch of readRecordBatches(layout, { raw: false, fields: 'email' })) {
    signal?.throwIfAborted();
    for (const record of batch) {
      if (record.fields.length !== columnCount && result.ragged.rows++ < RAGGED_LINES_KEPT) result.ragged.lines.push(record.line);
      const decided = prefilter(record.fields[column]);
      if (decided.key === undefined) {
        if (decided.reason === 'syntax') result.invalid++;
        else result.blank++;
      } else {
        if (decided.checked !== undefined) result.extracted++;
        // One hash lookup per row: add, and see whether the set grew.
        const before = unique.size;
        unique.add(decided.key);
        if (unique.size === before) result.duplicates++;
      }
    }
    result.rows += batch.length;
    onRows?.(result.rows);
  }
  return result;
}
