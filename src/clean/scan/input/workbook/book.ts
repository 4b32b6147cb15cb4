// The workbook part: its sheets, its date system, where its styles and shared strings are; and the sheet read.
import { UsageError } from '../../../../errors.js';
import { readRelationships, relationshipOf, type WorkbookPackage } from './package.js';
import { attribute } from './xml.js';

export interface SheetEntry {
  name: string;
  hidden: boolean;
  path?: string;
}

export type Book = Awaited<ReturnType<typeof readBook>>;

const MAX_SHEETS = 10_000;

export async function readBook(pkg: WorkbookPackage) {
  const root = await readRelationships(pkg, '');
  const workbookPath = relationshipOf(root, 'officeDocument')?.path ?? 'xl/workbook.xml';
  if (!pkg.has(workbookPath))
    throw new UsageError(`${pkg.displayName}: not an Excel workbook (a zip archive without a workbook part)`);
  if (workbookPath.endsWith('.bin')) {
    throw new UsageError(
      `${pkg.displayName}: an Excel binary workbook (.xlsb), which mailclean does not read`,
      'open it in Excel and save it as an Excel workbook (.xlsx) or as "CSV UTF-8"',
    );
  }
  const rels = await readRelationships(pkg, workbookPath);
  const book = {
    path: workbookPath,
    sheets: [] as SheetEntry[],
    /** Dates count from 1904 (old Mac workbooks), not 1900. */
    date1904: false,
    stylesPath: relationshipOf(rels, 'styles')?.path,
    sharedStringsPath: relationshipOf(rels, 'sharedStrings')?.path,
  };
  await pkg.parse(workbookPath, {
    open(name, attributes) {
      if (name === 'workbookPr') book.date1904 = isTrue(attribute(attributes, 'date1904'));
      if (name !== 'sheet') return;
      if (book.sheets.length >= MAX_SHEETS) throw new UsageError(`${pkg.displayName}: more than 10,000 sheets`);
      const rel = rels.get(attribute(attributes, 'id') ?? '');
      const state = attribute(attributes, 'state');
      book.sheets.push({
        name: attribute(attributes, 'name') ?? `Sheet${book.sheets.length + 1}`,
        hidden: state === 'hidden' || state === 'veryHidden',
        path: rel?.type.endsWith('/worksheet') && pkg.has(rel.path) ? rel.path : undefined,
      });
    },
  });
  return book;
}

const isTrue = (value: string | undefined) => value === '1' || value === 'true';

/** The sheet `--sheet` names (a name, else a 1-based position), else the first visible sheet, as Excel shows it. */
export function chooseSheet(book: Book, displayName: string, sheet: string | undefined): SheetEntry & { path: string } {
  const names = book.sheets.map((s) => s.name);
  const hint = names.length ? `its sheets: ${names.join(', ')} (--sheet NAME or --sheet N)` : undefined;
  const chosen =
    sheet === undefined
      ? (book.sheets.find((s) => s.path !== undefined && !s.hidden) ?? book.sheets.find((s) => s.path !== undefined))
      : // A tab named as given wins over a position: `--sheet 2024` is the sheet called 2024.
        (book.sheets.find((s) => s.name === sheet) ??
        (/^\d+$/.test(sheet) ? book.sheets[Number(sheet) - 1] : book.sheets.find((s) => sameName(s.name, sheet))));
  if (!chosen) {
    const which = sheet === undefined ? 'no sheet' : `no sheet "${sheet}"`;
    throw new UsageError(`${displayName}: ${which} in this workbook`, hint);
  }
  if (chosen.path === undefined)
    throw new UsageError(`${displayName}: sheet "${chosen.name}" holds a chart, not rows`, hint);
  return { ...chosen, path: chosen.path };
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
