import { UsageError } from '../../errors.js';
import { type CellDecider, keyOfCell } from './cell-key.js';
import { type InputLayout, readRecordBatches } from './input/index.js';
import { sameStamp, stampList } from './input/stamp.js';
import { PlainRows } from './spill/plain-rows.js';
import { RowOrdinals } from './spill/row-ordinals.js';
import { UniqueKeys } from './spill/unique-keys.js';
import { fixingTypos } from './typo-fix.js';

/** Memory for the unique addresses' bytes and for the rows' ordinals; past it, the older part goes to disk. */
const KEYS_BUDGET = 16 << 20;
const ROWS_BUDGET = 8 << 20;

export const RAGGED_LINES_KEPT = 10;

export type ScanResult = Awaited<ReturnType<typeof scanInput>>;

export interface ScanOptions {
  /** Where what passes the memory budget is written (private files, removed by `release`). */
  spoolDir: string;
  /** Keep each row's address number, for a write pass that looks up verdicts by number (see VerdictTable). */
  keepRowOrdinals?: boolean;
  /** Each address the first time it is seen (the engine starts looking up its domain). */
  onNewKey?: (key: string) => void;
  onRows?: (rows: number) => void;
  signal?: AbortSignal;
  budgets?: { keys: number; rows: number };
  /** Local parts told apart by the case of their letters (see dedupeKey); by default `Ann@` is `ann@`. */
  caseSensitive?: boolean;
  /** --fix-typos: an address with a mistyped domain is taken as its fix (typo-fix.ts). */
  fixTypos?: boolean;
}

/** Pass 1: every row read once; only the unique addresses are kept. */
export async function scanInput(layout: InputLayout, opts: ScanOptions) {
  const { spoolDir, budgets } = opts;
  const unique = new UniqueKeys({
    spoolDir,
    budget: budgets?.keys ?? KEYS_BUDGET,
    foldsCase: !opts.caseSensitive,
  });
  const rowOrdinals = opts.keepRowOrdinals
    ? new RowOrdinals({ spoolDir, budget: budgets?.rows ?? ROWS_BUDGET })
    : undefined;
  const plain: CellDecider = opts.caseSensitive ? (cell) => keyOfCell(cell, true) : keyOfCell;
  const release = () => {
    unique.close();
    rowOrdinals?.close();
  };
  const result = {
    rows: 0,
    /** Rows without an address to check: an empty email cell, or none (a row that ends before it). */
    blank: 0,
    invalid: 0,
    duplicates: 0,
    unique,
    /** With `keepRowOrdinals`: each row's address's number, in row order (rows without an address have none). */
    rowOrdinals,
    /** With `keepRowOrdinals`: which rows' cells are their address as it stands (see PlainRows). */
    plainRows: rowOrdinals ? new PlainRows() : undefined,
    /** Rows whose address was taken from inside the cell (`Name <address>`, mailto:, ` ::: `). */
    extracted: 0,
    /** --fix-typos: rows whose address had a mistyped domain, taken as its fix. */
    fixed: 0,
    /** How each row's cell was decided: the write pass decides its rows alike. */
    decide: opts.fixTypos ? fixingTypos(plain) : plain,
    /** Rows with more or fewer fields than the header (or the first row), and the first of their lines. */
    ragged: { rows: 0, lines: [] as number[] },
    release,
    /** The file read, as it was when the scan began: a write pass must read the same rows. */
    readStamp: stampList(layout.file),
  };
  try {
    await scanRecords(layout, result, opts);
  } catch (error) {
    release();
    throw error;
  }
  return result;
}

async function scanRecords(
  layout: InputLayout,
  result: ScanResult,
  { onNewKey, onRows, signal }: ScanOptions,
): Promise<void> {
  const { emailColumn: column, columnCount } = layout;
  const { unique, rowOrdinals, plainRows, decide } = result;
  for await (const batch of readRecordBatches(layout, { raw: false, fields: 'email' })) {
    signal?.throwIfAborted();
    for (const record of batch) {
      if (record.fields.length !== columnCount && result.ragged.rows++ < RAGGED_LINES_KEPT)
        result.ragged.lines.push(record.line);
      const cell = record.fields[column];
      const decided = decide(cell);
      plainRows?.push(decided.key !== undefined && decided.checked === undefined && decided.key === cell?.trim());
      if (decided.key === undefined) {
        if (decided.reason === 'syntax') result.invalid++;
        else result.blank++;
      } else {
        if (decided.checked !== undefined) result.extracted++;
        if (decided.fixed !== undefined) result.fixed++;
        // One hash lookup per row: add, and see whether the set grew.
        const before = unique.size;
        const ordinal = unique.add(decided.key);
        if (unique.size === before) result.duplicates++;
        else onNewKey?.(decided.key);
        rowOrdinals?.push(ordinal);
      }
    }
    result.rows += batch.length;
    onRows?.(result.rows);
    // The reader only lets the event loop run once a MiB: DNS answers for the domains prefetched would wait for it,
    // and no more than the resolver's concurrency would be asked in each wait.
    if (onNewKey) await new Promise(setImmediate);
  }
}

/** Rows found by their number in a changed file would get another row's verdict. */
export function assertInputUnchanged(layout: InputLayout, scan: ScanResult): void {
  if (inputChanged(layout, scan))
    throw new UsageError(
      `${layout.displayName} changed while it was being cleaned; nothing was written: run the command again`,
    );
}

export function inputChanged(layout: InputLayout, scan: ScanResult): boolean {
  const now = stampList(layout.file);
  return !now || !scan.readStamp || !sameStamp(now, scan.readStamp);
}
