import { readRecords, type InputLayout } from './input/index.js';
import { prefilter } from './prefilter.js';

export interface ScanResult {
  rows: number;
  blank: number;
  invalid: number;
  duplicates: number;
  /** Unique addresses in order of first appearance. */
  unique: Set<string>;
}

/** Pass 1: every row read once; only the unique addresses are kept. */
export async function scanInput(layout: InputLayout, onRows?: (rows: number) => void): Promise<ScanResult> {
  const result: ScanResult = { rows: 0, blank: 0, invalid: 0, duplicates: 0, unique: new Set() };
  const column = layout.emailColumn;
  for await (const record of readRecords(layout)) {
    result.rows++;
    const decided = prefilter(record.fields[column]);
    if (decided.key === undefined) {
      if (decided.reason === 'blank') result.blank++;
      else result.invalid++;
    } else if (result.unique.has(decided.key)) result.duplicates++;
    else result.unique.add(decided.key);
    if (onRows && (result.rows & 0x3fff) === 0) onRows(result.rows);
  }
  return result;
}
