import { readRecordBatches, type InputLayout } from './input/index.js';
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
export async function scanInput(layout: InputLayout, onRows?: (rows: number) => void, signal?: AbortSignal): Promise<ScanResult> {
  const result: ScanResult = { rows: 0, blank: 0, invalid: 0, duplicates: 0, unique: new Set() };
  const column = layout.emailColumn;
  const unique = result.unique;
  for await (const batch of readRecordBatches(layout, { raw: false })) {
    signal?.throwIfAborted();
    for (const record of batch) {
      const decided = prefilter(record.fields[column]);
      if (decided.key === undefined) {
        if (decided.reason === 'blank') result.blank++;
        else result.invalid++;
      } else {
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
