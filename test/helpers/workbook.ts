// Workbooks for tests, written and read at the level of their XML, apart from mailclean's own reader and writer:
// `craftWorkbook` makes the unusual ones no office suite writes (parts stored out of tab order, rows and cells without
// `r`, hostile sizes); `sheetCells` reads a written workbook's cells as they are stored (type, style, value).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';
import yazl from 'yazl';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface CraftedSheet {
  name: string;
  /** The sheet part's `<sheetData>` content, as written. */
  data: string;
  hidden?: boolean;
}

/**
 * Writes a workbook: the sheets' parts are stored in `storedOrder` (indexes into `sheets`, default tab order), and
 * workbook.xml last, as exceljs does; `sharedStrings` (each `<si>`'s content) and `styles` become those parts.
 */
export async function craftWorkbook(
  path: string,
  sheets: CraftedSheet[],
  extra: { storedOrder?: number[]; sharedStrings?: string[]; styles?: string; date1904?: boolean } = {},
): Promise<void> {
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string | Buffer) => zip.addBuffer(Buffer.from(text), name);
  add(
    '[Content_Types].xml',
    `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
  );
  add(
    '_rels/.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  const rels = sheets.map(
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  if (extra.sharedStrings)
    rels.push(`<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  if (extra.styles) rels.push(`<Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/>`);
  add(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  if (extra.sharedStrings) {
    const items = extra.sharedStrings.map((s) => `<si>${s}</si>`).join('');
    add('xl/sharedStrings.xml', `<?xml version="1.0"?><sst xmlns="${MAIN}">${items}</sst>`);
  }
  if (extra.styles)
    add('xl/styles.xml', `<?xml version="1.0"?><styleSheet xmlns="${MAIN}">${extra.styles}</styleSheet>`);
  for (const i of extra.storedOrder ?? sheets.map((_, i) => i)) {
    add(
      `xl/worksheets/sheet${i + 1}.xml`,
      `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>${sheets[i]!.data}</sheetData></worksheet>`,
    );
  }
  const list = sheets.map(
    (s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"${s.hidden ? ' state="hidden"' : ''}/>`,
  );
  const pr = extra.date1904 ? '<workbookPr date1904="1"/>' : '';
  add(
    'xl/workbook.xml',
    `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}">${pr}<sheets>${list.join('')}</sheets></workbook>`,
  );
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

/** A stored cell: `t` and `s` as written (undefined when absent), its value's text, and whether it has a formula. */
export interface StoredCell {
  ref: string;
  t?: string;
  s?: string;
  value: string;
  formula: boolean;
}

/** The parts of a workbook file, by name. */
export async function workbookParts(path: string): Promise<Map<string, string>> {
  const zip = await yauzl.openPromise(path);
  const parts = new Map<string, string>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    parts.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
  }
  zip.close();
  return parts;
}

const letters = (column: number): string =>
  column < 26 ? String.fromCharCode(65 + column) : letters(Math.floor(column / 26) - 1) + letters(column % 26);

/** Every cell of a sheet part (empty ones too), by row: `rows[0]` is the first row; `ref` worked out when absent. */
export function sheetCells(xml: string): StoredCell[][] {
  const parser = new SaxesParser();
  const rows: StoredCell[][] = [];
  let cell: StoredCell | undefined;
  let inValue = false;
  let row = 0;
  let column = 0;
  parser.on('opentag', (tag) => {
    const a = (tag as SaxesTagPlain).attributes;
    if (tag.name === 'row') {
      rows.push([]);
      row = a.r ? Number(a.r) : row + 1;
      column = 0;
    } else if (tag.name === 'c') {
      const ref = a.r ?? `${letters(column)}${row}`;
      column = ref
        .replace(/\d+$/, '')
        .split('')
        .reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
      cell = { ref, t: a.t, s: a.s, value: '', formula: false };
    } else if (tag.name === 'f' && cell) cell.formula = true;
    else if ((tag.name === 'v' || tag.name === 't') && cell) inValue = true;
  });
  parser.on('text', (text) => {
    if (inValue && cell) cell.value += text;
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'v' || tag.name === 't') inValue = false;
    if (tag.name === 'c' && cell) {
      rows.at(-1)!.push(cell);
      cell = undefined;
    }
  });
  parser.write(xml).close();
  return rows;
}

/** The number format code of each cell style of a styles part (by `s`), built-in ones by id (`#14`). */
export function styleFormats(stylesXml: string): string[] {
  const codes = new Map<string, string>();
  for (const m of stylesXml.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)) codes.set(m[1]!, m[2]!);
  const xfs = /<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(stylesXml)?.[1] ?? '';
  return [...xfs.matchAll(/<xf [^>]*numFmtId="(\d+)"/g)].map((m) => codes.get(m[1]!) ?? `#${m[1]}`);
}
