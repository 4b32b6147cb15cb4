// A workbook's sheet streamed into two spools: its rows as CSV, read like any list, and each row's typed cells.
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { UsageError } from '../../../../errors.js';
import { ChunkedWriter } from '../../../write/atomic-file.js';
import type { OpenInputOptions } from '../index.js';
import type { WorkbookLayout } from '../layout.js';
import { MAX_RECORD } from '../sniff.js';
import { spoolPath } from '../source.js';
import { cellsLine } from '../typed-cells.js';
import { chooseSheet, readBook } from './book.js';
import { WorkbookPackage } from './package.js';
import { readSharedStrings } from './shared-strings.js';
import { readSheet, type SheetRow } from './sheet.js';
import { type NumberFormat, readStyles } from './styles.js';

/** The sheet as a CSV spool, and the workbook's layout: its typed cells' spool among it. */
export type SpooledSheet = WorkbookLayout & { csv: string };

export interface SpoolOptions extends Pick<OpenInputOptions, 'spoolDir' | 'sheet' | 'rawValues' | 'signal'> {
  file: string;
  displayName: string;
  strict: boolean;
}

export async function spoolWorkbook(opts: SpoolOptions): Promise<SpooledSheet> {
  const { displayName, spoolDir } = opts;
  const pkg = await WorkbookPackage.open(opts.file, displayName);
  const paths: string[] = [];
  // The sheet's reading waits, after each chunk of it, for the disk to take the spools' last flushes.
  const flushes: Promise<void>[] = [];
  try {
    const book = await readBook(pkg);
    const chosen = chooseSheet(book, displayName, opts.sheet);
    const styles = await readStyles(pkg, book.stylesPath);
    const strings = await readSharedStrings(pkg, book.sharedStringsPath, opts.signal);
    await mkdir(spoolDir, { recursive: true, mode: 0o700 });
    const csvPath = spoolPath(spoolDir);
    const cellsPath = spoolPath(spoolDir);
    paths.push(csvPath, cellsPath);
    const csv = new ChunkedWriter(createWriteStream(csvPath, { flags: 'wx', mode: 0o600 }));
    const cells = new ChunkedWriter(createWriteStream(cellsPath, { flags: 'wx', mode: 0o600 }));
    const formats = new FormatTable();
    const where = `${displayName}, sheet "${chosen.name}"`;
    const rows = new RowShaper(where, opts.strict);
    const shown = opts.rawValues ? undefined : (await import('./shown.js')).shownText;
    const { date1904 } = book;
    const context = { pkg, path: chosen.path, where, strings, styles, date1904, shown, signal: opts.signal };
    const afterChunk = () => {
      const waits = flushes.splice(0);
      return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
    };
    const formatIndex = (format: NumberFormat) => formats.indexOf(format);
    const { formulasWithoutResult } = await readSheet({ ...context, formatIndex, afterChunk }, (row) => {
      const line = rows.csvLine(row);
      if (line === undefined) return;
      const flushed = [csv.push(line), cells.push(cellsLine(row.row, row.typed))];
      for (const flush of flushed) if (flush) flushes.push(flush);
    });
    await Promise.all([csv.end(), cells.end()]);
    if (rows.count === 0) throw new UsageError(`${where} is empty`);
    return {
      csv: csvPath,
      cellsFile: cellsPath,
      sheet: chosen.name,
      sheets: book.sheets.map((s) => s.name),
      formats: formats.list,
      formulasWithoutResult,
      parts: { file: opts.file, workbook: book.path, sheet: chosen.path, styles: book.stylesPath },
    };
  } catch (error) {
    await Promise.allSettled(flushes);
    for (const path of paths) await rm(path, { force: true });
    throw error;
  } finally {
    pkg.close();
  }
}

/** Rows as CSV lines: as wide as the first, trailing empty cells being no missing fields; empty ones left out. */
class RowShaper {
  private width = -1;
  count = 0;

  constructor(
    private readonly where: string,
    private readonly strict: boolean,
  ) {}

  csvLine(row: SheetRow): string | undefined {
    const fields = row.fields;
    if (this.width < 0) this.width = fields.length;
    // A lone blank cell would be read as a blank line, which the reader skips: the two spools would fall out of step.
    if (fields.length <= 1 && this.width === 1 && (fields[0] ?? '').trim() === '') return undefined;
    if (fields.length > this.width && this.strict) {
      throw new UsageError(
        `${this.where}: row ${row.row} has a value in column ${fields.length}, beyond the first row's ${this.width}`,
        'without --strict such rows are kept and counted',
      );
    }
    while (fields.length < this.width) fields.push('');
    const line = `${fields.map(quote).join(',')}\n`;
    if (line.length > MAX_RECORD / 2)
      throw new UsageError(`${this.where}: row ${row.row} holds more than 512 KB of text`);
    this.count++;
    return line;
  }
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

class FormatTable {
  readonly list: NumberFormat[] = [{ id: 0 }];
  private readonly index = new Map<string, number>([['0:', 0]]);

  indexOf(format: NumberFormat): number {
    const key = `${format.id}:${format.code ?? ''}`;
    let at = this.index.get(key);
    if (at === undefined) {
      at = this.list.push(format) - 1;
      this.index.set(key, at);
    }
    return at;
  }
}
