// Each cell style's number format: which numbers are dates or times, and what a workbook written back keeps.
import { UsageError } from '../../../../errors.js';
import type { WorkbookPackage } from './package.js';
import { attribute } from './xml.js';

/** A cell's number format: a built-in id (below 164), or a format code of the workbook's own. */
export interface NumberFormat {
  id: number;
  code?: string;
}

export type DateShape = 'date' | 'time' | 'datetime';

export interface Styles {
  formats: Array<{ format: NumberFormat; date?: DateShape }>;
}

/** Excel allows 64,000 cell styles. */
const MAX_STYLES = 65_536;

export async function readStyles(pkg: WorkbookPackage, path: string | undefined): Promise<Styles> {
  const styles: Styles = { formats: [] };
  if (path === undefined || !pkg.has(path)) return styles;
  const codes = new Map<number, string>();
  let inCellXfs = false;
  await pkg.parse(path, {
    open(name, attributes) {
      if (name === 'numFmt') {
        const id = Number(attribute(attributes, 'numFmtId'));
        const code = attribute(attributes, 'formatCode');
        if (Number.isInteger(id) && code !== undefined && codes.size < MAX_STYLES) codes.set(id, code);
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        if (styles.formats.length >= MAX_STYLES) throw new UsageError(`${pkg.displayName}: too many cell styles`);
        const id = Number(attribute(attributes, 'numFmtId') ?? 0);
        styles.formats.push({ format: { id: Number.isInteger(id) ? id : 0 } });
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  for (const entry of styles.formats) {
    const code = codes.get(entry.format.id);
    // LibreOffice names General as a format of its own.
    if (code !== undefined && /^general$/i.test(code)) entry.format.id = 0;
    else if (code !== undefined) entry.format.code = code;
    entry.date = dateShape(entry.format);
  }
  return styles;
}

/** Built-in formats that show dates or times: 14-22 and 45-47 everywhere, 27-36 and 50-58 in East Asian Excel. */
const BUILTIN_DATES: Record<number, DateShape> = {
  14: 'date',
  15: 'date',
  16: 'date',
  17: 'date',
  18: 'time',
  19: 'time',
  20: 'time',
  21: 'time',
  22: 'datetime',
  45: 'time',
  46: 'time',
  47: 'time',
};
for (const id of [27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58]) BUILTIN_DATES[id] = 'date';
for (const id of [32, 33, 55, 56]) BUILTIN_DATES[id] = 'time';

export function dateShape(format: NumberFormat): DateShape | undefined {
  if (format.code === undefined) return BUILTIN_DATES[format.id];
  // The first section is the one positive numbers use.
  const code = format.code
    .replace(/"[^"]*"|\\.|_.|\*.|AM\/PM|A\/P/gi, '')
    .replace(/\[(h+|m+|s+)\]/gi, '$1')
    .replace(/\[[^\]]*\]/g, '')
    .split(';')[0]!;
  if (/general|@/i.test(code)) return undefined;
  const date = /[yd]/i.test(code) || /m/i.test(code.replace(/h+[^a-z]*m+|m+[^a-z]*s/gi, ''));
  const time = /[hs]/i.test(code);
  if (date && time) return 'datetime';
  return date ? 'date' : time ? 'time' : undefined;
}
