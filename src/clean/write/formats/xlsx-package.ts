// The parts of a workbook around its sheets (yazl writes the zip): content types, relationships, the workbook, styles.
import type { Writable } from 'node:stream';
import { PassThrough } from 'node:stream';
import yazl from 'yazl';
import type { NumberFormat } from '../../scan/input/workbook/styles.js';
import { xmlAttribute } from './xlsx-xml.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Where a workbook's own styles end, when the sheet is written into it (xlsx-kept.ts). */
export interface StyleBase {
  xfs: number;
  fonts: number;
  firstCustomId: number;
}

/** Each style a cell can have: plain, the bold header, then one a number format met; after `base`'s when written over. */
export class StyleTable {
  readonly header: number;
  private readonly xfs: number[] = [0, 0];
  private readonly custom = new Map<string, number>();
  private readonly byFormat = new Map<string, number>();

  constructor(private readonly base?: StyleBase) {
    this.header = this.index(1);
  }

  styleOf(format: NumberFormat): number {
    if (format.id === 0 && format.code === undefined) return 0;
    const key = `${format.id}:${format.code ?? ''}`;
    let style = this.byFormat.get(key);
    if (style === undefined) {
      // Format codes are numbered anew from Excel's first custom id, or past those of the workbook written over.
      let id = format.id;
      if (format.code !== undefined) {
        id = this.custom.get(format.code) ?? (this.base?.firstCustomId ?? 164) + this.custom.size;
        this.custom.set(format.code, id);
      }
      style = this.index(this.xfs.push(id) - 1);
      this.byFormat.set(key, style);
    }
    return style;
  }

  private index(own: number): number {
    return this.base && own > 0 ? this.base.xfs + own - 1 : own;
  }

  /** The number formats, the bold font's id and the cell styles made here, as XML elements. */
  elements(boldFont: number): { numFmts: string[]; font: string; xfs: string[] } {
    const numFmts = [...this.custom].map(
      ([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlAttribute(code)}"/>`,
    );
    const xfs = this.xfs.map((id, i) =>
      i === 1
        ? `<xf numFmtId="0" fontId="${boldFont}" fillId="0" borderId="0" xfId="0" applyFont="1"/>`
        : `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"${id ? ' applyNumberFormat="1"' : ''}/>`,
    );
    return { numFmts, font: '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>', xfs };
  }

  xml(): string {
    const { numFmts, font, xfs } = this.elements(1);
    return (
      `${HEAD}<styleSheet xmlns="${MAIN}">` +
      (numFmts.length ? `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` : '') +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>${font}</fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

export interface SheetPart {
  name: string;
  range: string;
}

/** A zip written as its parts come: each sheet as it is made, the other parts at the end. */
export class ZipOutput {
  protected readonly zip = new yazl.ZipFile();
  private readonly ended: Promise<void>;

  constructor(out: Writable) {
    // The output's owner ends (and commits) the file itself.
    this.zip.outputStream.pipe(out, { end: false });
    this.ended = new Promise((resolve, reject) => {
      this.zip.outputStream.on('end', resolve);
      this.zip.outputStream.on('error', reject);
    });
  }

  protected sheetAt(path: string): PassThrough {
    const stream = new PassThrough({ highWaterMark: 1 << 20 });
    this.zip.addReadStream(stream, path, { compressionLevel: 1 });
    return stream;
  }

  protected add(path: string, text: string): void {
    this.zip.addBuffer(Buffer.from(text), path);
  }

  protected async end(): Promise<void> {
    this.zip.end();
    await this.ended;
  }
}

export class PackageWriter extends ZipOutput {
  sheet(n: number): PassThrough {
    return this.sheetAt(`xl/worksheets/sheet${n}.xml`);
  }

  async finish(sheets: readonly SheetPart[], styles: StyleTable): Promise<void> {
    this.add('[Content_Types].xml', contentTypes(sheets.length));
    this.add(
      '_rels/.rels',
      `${HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    this.add('xl/workbook.xml', workbookXml(sheets));
    this.add('xl/_rels/workbook.xml.rels', workbookRels(sheets.length));
    this.add('xl/styles.xml', styles.xml());
    await this.end();
  }
}

function contentTypes(sheets: number): string {
  const sheet = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
  const overrides = Array.from(
    { length: sheets },
    (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${sheet}"/>`,
  );
  return (
    `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    `${overrides.join('')}</Types>`
  );
}

function workbookXml(sheets: readonly SheetPart[]): string {
  const list = sheets.map((s, i) => `<sheet name="${xmlAttribute(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
  // Excel and LibreOffice keep a sheet's filter range in this hidden name; without it LibreOffice shows no filter.
  const filters = sheets.map(
    (s, i) =>
      `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">'${xmlAttribute(s.name.replace(/'/g, "''"))}'!${absolute(s.range)}</definedName>`,
  );
  return (
    `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews>` +
    `<sheets>${list.join('')}</sheets><definedNames>${filters.join('')}</definedNames></workbook>`
  );
}

function workbookRels(sheets: number): string {
  const rels = Array.from(
    { length: sheets },
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  rels.push(`<Relationship Id="rId${sheets + 1}" Type="${REL}/styles" Target="styles.xml"/>`);
  return `${HEAD}<Relationships xmlns="${PKG_REL}">${rels.join('')}</Relationships>`;
}

function absolute(range: string): string {
  return range.replace(/([A-Z]+)(\d+)/g, '$$$1$$$2');
}

export const SHEET_HEAD = `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">`;
