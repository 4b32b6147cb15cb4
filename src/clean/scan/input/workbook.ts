// An Excel workbook (.xlsx) as input: one sheet streamed row by row (exceljs) into a private CSV spool, which the
// rest of the pipeline reads like any list. Cells are written as Excel shows them: a formula's result, a link's
// text, a date (a number formatted as one) as ISO 8601.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../../errors.js';

/** A zip archive's first bytes: what every .xlsx starts with. */
export function looksLikeWorkbook(sample: Buffer, displayName: string): boolean {
  return sample.length >= 4 && sample.readUInt32LE(0) === 0x04034b50 && /\.xlsx$/i.test(displayName);
}

/** Writes the chosen sheet (a name, or a 1-based number; the first by default) as CSV; returns the spool's path. */
export async function workbookToCsv(
  file: string,
  spoolDir: string,
  displayName: string,
  sheet: string | undefined,
): Promise<string> {
  const { default: ExcelJS } = await import('exceljs');
  await mkdir(spoolDir, { recursive: true, mode: 0o700 });
  // Named like the other spools, so a killed run's copy is removed by the next run.
  const spool = join(spoolDir, `input-${process.pid}-${randomBytes(6).toString('hex')}.spool`);
  const out = createWriteStream(spool, { mode: 0o600 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const seen: string[] = [];
  let found = false;
  try {
    for await (const worksheet of reader) {
      const name = (worksheet as unknown as { name?: string }).name ?? `Sheet${seen.length + 1}`;
      seen.push(name);
      if (found || !isChosen(sheet, name, seen.length)) {
        for await (const _ of worksheet) {
          // Skipped: a sheet must be read through for the reader to reach the next.
        }
        continue;
      }
      found = true;
      let width = -1;
      for await (const row of worksheet) {
        const cells = ((row as { values: unknown[] }).values ?? []).slice(1).map(cellText);
        // The first row sets the width: Excel leaves out trailing empty cells, which are not missing fields.
        if (width < 0) width = cells.length;
        while (cells.length < width) cells.push('');
        if (!out.write(`${cells.map(quote).join(',')}\n`)) await once(out, 'drain');
      }
    }
  } catch (error) {
    out.destroy();
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${displayName}: cannot read the workbook (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  out.end();
  await once(out, 'close');
  if (!found) {
    const which = sheet === undefined ? 'no sheet' : `no sheet "${sheet}"`;
    throw new UsageError(
      `${displayName}: ${which} in this workbook`,
      seen.length ? `its sheets: ${seen.join(', ')} (--sheet NAME or --sheet N)` : undefined,
    );
  }
  return spool;
}

function isChosen(sheet: string | undefined, name: string, position: number): boolean {
  if (sheet === undefined) return position === 1;
  return /^\d+$/.test(sheet) ? Number(sheet) === position : sheet === name;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'object') return String(value);
  const v = value as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: unknown };
  if (Array.isArray(v.richText)) return v.richText.map((part) => part.text).join('');
  if (v.text !== undefined) return cellText(v.text);
  if ('result' in v) return cellText(v.result);
  return '';
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
