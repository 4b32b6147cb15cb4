// A workbook input's layout: the chosen sheet spooled as CSV (to-spool.ts), then detected like any CSV.

import { detect } from '../detect.js';
import type { OpenInputOptions } from '../index.js';
import type { InputLayout } from '../layout.js';
import { type ByteScan, scanBytes } from '../source.js';
import { spoolWorkbook } from './to-spool.js';

interface OpenWorkbookOptions extends OpenInputOptions {
  file: string;
  displayName: string;
  strict: boolean;
  original: ByteScan;
  spooled: string[];
}

export async function openWorkbook(opts: OpenWorkbookOptions): Promise<Omit<InputLayout, 'cleanup'>> {
  const { displayName } = opts;
  const sheet = await spoolWorkbook({ ...opts, spoolDir: opts.spoolDir });
  opts.spooled.push(sheet.csv, sheet.cells);
  const layout = await detect(sheet.csv, displayName, await scanBytes(sheet.csv, displayName), opts.column, true);
  return {
    ...layout,
    // The journal names the user's workbook and sheet, not the copy.
    fingerprint: `${opts.original.fingerprint}:${sheet.sheet}`,
    size: opts.original.size,
    encoding: 'utf-8',
    encodingGuessed: false,
    strict: opts.strict,
    workbook: {
      sheet: sheet.sheet,
      sheets: sheet.sheets,
      cellsFile: sheet.cells,
      formats: sheet.formats,
      formulasWithoutResult: sheet.formulasWithoutResult,
      parts: sheet.parts,
    },
  };
}
