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
  const { csv, ...workbook } = await spoolWorkbook(opts);
  opts.spooled.push(csv, workbook.cellsFile);
  const layout = await detect(csv, displayName, await scanBytes(csv, displayName), opts.column, true);
  return {
    ...layout,
    // The journal names the user's workbook and sheet, not the copy.
    fingerprint: `${opts.original.fingerprint}:${workbook.sheet}`,
    size: opts.original.size,
    encoding: 'utf-8',
    encodingGuessed: false,
    strict: opts.strict,
    workbook,
  };
}
