// How a service run writes its rows: each row's verdict found by its address number (or by address, for a list
// edited during the run), and outputs left as they were when nothing was checked.
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import type { InputLayout } from '../../clean/scan/input/index.js';
import { inputChanged, type ScanResult } from '../../clean/scan/scan.js';
import type { Verdict } from '../../clean/verdict/verdict.js';
import type { VerdictTable } from '../../clean/verdict/verdict-table.js';
import type { WriteOptions } from '../../clean/write/write-rows.js';
import type { Factory } from '../../factory.js';

/**
 * How the write pass finds each row's verdict: by the row's address number, read in step with the rows (one write
 * pass), once the memory that found numbers by address is given back. A list edited during the run (which can last
 * hours) is matched by address instead, as its rows' numbers mean nothing: its new addresses come out unchecked.
 */
export function verdictsByRow(
  f: Factory,
  layout: InputLayout,
  scan: ScanResult,
  verdicts: VerdictTable,
): (key: string) => Verdict | undefined {
  if (inputChanged(layout, scan)) {
    f.io.note(
      `${layout.displayName} changed during the run: its rows get the answers of their addresses, and addresses new to it are unchecked.`,
    );
    return (key) => {
      const ordinal = scan.unique.ordinal(key);
      return ordinal >= 0 ? verdicts.get(ordinal) : undefined;
    };
  }
  if (!scan.rowOrdinals) throw new Error("a scan for a run that writes keeps each row's address number");
  const nextOrdinal = scan.rowOrdinals.reader();
  scan.unique.dropIndex();
  return () => verdicts.get(nextOrdinal());
}

/** Drops from `options` the output files that exist already, so they are not replaced; returns their names. */
export function keepExisting(options: WriteOptions): string[] {
  const kept: string[] = [];
  if (options.output && existsSync(options.output.path)) {
    kept.push(options.output.given);
    options.output = undefined;
    options.backup = undefined;
    options.stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
  }
  if (options.rejects && existsSync(options.rejects.path)) {
    kept.push(options.rejects.given);
    options.rejects = undefined;
  }
  return kept;
}
