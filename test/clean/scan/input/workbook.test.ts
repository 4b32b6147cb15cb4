// Workbooks as input (src/clean/scan/input/workbook/): ones LibreOffice and openpyxl wrote (fixtures/clean/workbooks,
// made by tools/workbook-fixtures/make.py), and crafted ones no office suite writes: parts stored out of tab order,
// rows and cells without `r`, encrypted and legacy files, and bombs, which must be refused in bounded memory with
// nothing left in the spool directory.
import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { MARKUP_GAP } from '../../../../src/clean/scan/input/workbook/xml.js';
import { craftWorkbook } from '../../../helpers/workbook.js';
import { collect, fixture, open, tempDir, usageError } from './helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());
let n = 0;
const spoolDir = () => join(temp.dir, `spool-${++n}`);
const book = (name: string) => fixture(`workbooks/${name}`);

describe('workbooks written by other implementations', () => {
  it.each([
    // LibreOffice stores a boolean as the number 1 (its own export's choice) and writes its date-time and time
    // formats as its locale does; openpyxl leaves formulas uncomputed.
    ['libreoffice-contacts.xlsx', '1', '24', ['05/03/2024 09:15', '14:30']],
    ['openpyxl-contacts.xlsx', 'TRUE', '', ['2024-03-05 9:15:00', '14:30:00']],
  ])(
    '%s: every cell as the sheet shows it, the cells that are not text typed, rows numbered as the sheet does',
    async (name, subscribed, double, [lastSeen, callAt]) => {
      const layout = await open(book(name), { spoolDir: spoolDir() });
      expect(layout.workbook).toMatchObject({ sheet: 'Contacts', sheets: ['Contacts', 'Notes'] });
      expect(layout.header.slice(0, 6)).toEqual(['Name', 'Email', 'Zip', 'Phone', 'Score', 'Spent']);
      const records = await collect(layout, { typed: true });
      expect(records.map((r) => r.line)).toEqual([2, 3, 4]);
      const [ada, zoe, bob] = records;
      // Text that looks like a number stays text; numbers, dates, date-times and times in their formats (numfmt); a
      // formula's result.
      expect(ada!.fields.slice(0, 11)).toEqual([
        'Ada Lovelace',
        'ada@example.com',
        '02134',
        '+44 20 7946 0000',
        '12',
        '1,234.50',
        '2024-03-05',
        lastSeen,
        callAt,
        subscribed,
        double,
      ]);
      await layout.cleanup();
      // --raw-values: as stored, dates in ISO order.
      const raw = await open(book(name), { spoolDir: spoolDir(), rawValues: true });
      const [rawAda] = await collect(raw, { typed: true });
      expect(rawAda!.fields.slice(4, 9)).toEqual(['12', '1234.5', '2024-03-05', '2024-03-05 09:15:00', '14:30:00']);
      await raw.cleanup();
      expect(ada!.fields).toContain('=1+2');
      expect(zoe!.fields.slice(4, 7)).toEqual(['-7.25', name.startsWith('openpyxl') ? '0.3' : '0.00', '1999-12-31']);
      expect(zoe!.fields).toContain('first line\nsecond, with a comma');
      expect(bob!.fields.slice(0, 2)).toEqual(['Bob', 'bob@@example.net']);
      const kinds = Object.fromEntries((ada!.cells ?? []).map(([column, kind]) => [layout.header[column], kind]));
      expect(kinds).toMatchObject({ Score: 'n', Spent: 'n', Joined: 'd', 'Last seen': 'd', 'Call at': 'd' });
      expect(kinds.Zip).toBeUndefined();
      expect(layout.workbook!.formulasWithoutResult).toBe(double === '' ? 2 : 0);
    },
  );

  it('refuses an encrypted workbook and an Excel 97-2003 one, saying what each is and what to do', async () => {
    const encrypted = await usageError(open(book('libreoffice-encrypted.xlsx'), { spoolDir: spoolDir() }));
    expect(encrypted.message).toMatch(
      /libreoffice-encrypted\.xlsx: the workbook is encrypted \(protected with a password/,
    );
    expect(encrypted.hint).toMatch(/without the password/);
    const legacy = await usageError(open(book('libreoffice-contacts.xls'), { spoolDir: spoolDir() }));
    expect(legacy.message).toMatch(/an Excel 97-2003 workbook \(\.xls\)/);
    expect(legacy.hint).toMatch(/save it as an Excel workbook \(\.xlsx\)/);
  });
});

const row = (r: number | undefined, cells: string) => `<row${r === undefined ? '' : ` r="${r}"`}>${cells}</row>`;
const text = (value: string, ref?: string) =>
  `<c${ref ? ` r="${ref}"` : ''} t="inlineStr"><is><t>${value}</t></is></c>`;

describe('crafted workbooks', () => {
  it('reads the first tab, not the first part stored, and names every sheet', async () => {
    const path = join(temp.dir, 'tabs.xlsx');
    await craftWorkbook(
      path,
      [
        { name: 'Hidden', data: row(1, text('secret')), hidden: true },
        { name: 'Contacts', data: row(1, text('email')) + row(2, text('ada@example.com')) },
        {
          name: 'Archive',
          data: row(1, text('email')) + row(2, text('old@example.com')) + row(3, text('x@example.com')),
        },
      ],
      { storedOrder: [2, 0, 1] },
    );
    const layout = await open(path, { spoolDir: spoolDir() });
    expect(layout.workbook).toMatchObject({ sheet: 'Contacts', sheets: ['Hidden', 'Contacts', 'Archive'] });
    expect((await collect(layout)).map((r) => r.fields)).toEqual([['ada@example.com']]);
    await layout.cleanup();
    const byNumber = await open(path, { spoolDir: spoolDir(), sheet: '3' });
    expect((await collect(byNumber)).map((r) => r.line)).toEqual([2, 3]);
    await byNumber.cleanup();
  });

  it('--sheet N: the tab named N when there is one, else the N-th tab', async () => {
    const path = join(temp.dir, 'years.xlsx');
    await craftWorkbook(path, [
      { name: '2', data: row(1, text('email')) + row(2, text('second@example.com')) },
      { name: '1', data: row(1, text('email')) + row(2, text('first@example.com')) },
      { name: 'Last', data: row(1, text('email')) + row(2, text('last@example.com')) },
    ]);
    for (const [sheet, address] of [
      ['1', 'first@example.com'],
      ['3', 'last@example.com'],
    ]) {
      const layout = await open(path, { spoolDir: spoolDir(), sheet });
      expect(
        (await collect(layout)).map((r) => r.fields),
        sheet,
      ).toEqual([[address]]);
      await layout.cleanup();
    }
  });

  it('reads rows and cells without the optional r attribute, in order, a gap where a cell names its column', async () => {
    const path = join(temp.dir, 'no-r.xlsx');
    await craftWorkbook(path, [
      {
        name: 'List',
        data:
          row(undefined, text('Name') + text('Email') + text('Note')) +
          row(undefined, text('Ada') + text('ada@example.com')) +
          row(undefined, text('Bob') + text('bob@example.com', 'C3')) +
          row(7, text('Cy') + text('cy@example.com')),
      },
    ]);
    const layout = await open(path, { spoolDir: spoolDir() });
    expect(layout.header).toEqual(['Name', 'Email', 'Note']);
    const records = await collect(layout);
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [2, ['Ada', 'ada@example.com', '']],
      [3, ['Bob', '', 'bob@example.com']],
      [7, ['Cy', 'cy@example.com', '']],
    ]);
    await layout.cleanup();
  });

  it('numbers as their formats show them: leading zeros, percents, decimals, dates, text; --raw-values as stored', async () => {
    const path = join(temp.dir, 'formats.xlsx');
    const styles =
      '<numFmts count="3"><numFmt numFmtId="164" formatCode="00000"/><numFmt numFmtId="165" formatCode="dd.mm.yyyy"/>' +
      '<numFmt numFmtId="166" formatCode="#,##0.00 &quot;EUR&quot;"/></numFmts>' +
      '<cellXfs count="8"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="9"/><xf numFmtId="2"/><xf numFmtId="14"/>' +
      '<xf numFmtId="165"/><xf numFmtId="49"/><xf numFmtId="166"/></cellXfs>';
    const n = (style: number, value: string) => `<c s="${style}"><v>${value}</v></c>`;
    await craftWorkbook(
      path,
      [
        {
          name: 'F',
          data:
            row(
              1,
              ['email', 'zip', 'share', 'fixed', 'us', 'de', 'text', 'money', 'plain'].map((h) => text(h)).join(''),
            ) +
            row(
              2,
              text('ann@example.com') +
                n(1, '2134') +
                n(2, '0.25') +
                n(3, '3.1') +
                n(4, '46363') +
                n(5, '46363') +
                n(6, '12') +
                n(7, '1234.5') +
                n(0, '4915112345678'),
            ),
        },
      ],
      { styles },
    );
    const layout = await open(path, { spoolDir: spoolDir() });
    expect((await collect(layout)).map((r) => r.fields)).toEqual([
      ['ann@example.com', '02134', '25%', '3.10', '12/7/2026', '07.12.2026', '12', '1,234.50 EUR', '4915112345678'],
    ]);
    await layout.cleanup();
    const raw = await open(path, { spoolDir: spoolDir(), rawValues: true });
    expect((await collect(raw)).map((r) => r.fields)).toEqual([
      ['ann@example.com', '2134', '0.25', '3.1', '2026-12-07', '2026-12-07', '12', '1234.5', '4915112345678'],
    ]);
    await raw.cleanup();
  });

  it('reads shared strings, phonetic guides left out, escapes undone, dates of the 1904 system', async () => {
    const path = join(temp.dir, 'shared.xlsx');
    const styles = '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs>';
    await craftWorkbook(
      path,
      [
        {
          name: 'S',
          data:
            row(1, '<c t="s"><v>0</v></c><c t="s"><v>1</v></c>') + row(2, '<c t="s"><v>2</v></c><c s="1"><v>0</v></c>'),
        },
      ],
      {
        sharedStrings: [
          '<t>email</t>',
          '<t>since</t>',
          '<r><t>ann_x000D_</t></r><r><t>@example.com</t></r><rPh><t>xx</t></rPh>',
        ],
        styles,
        date1904: true,
      },
    );
    const layout = await open(path, { spoolDir: spoolDir() });
    expect((await collect(layout)).map((r) => r.fields)).toEqual([['ann\r@example.com', '1/1/1904']]);
    await layout.cleanup();
  });

  it.each([
    ['one cell of 3 MB', `<c t="inlineStr"><is><t>${'a'.repeat(MARKUP_GAP + 1000)}</t></is></c>`],
    ['3 MB of whitespace between two cells', `${text('x')}${' '.repeat(MARKUP_GAP + 1000)}${text('y')}`],
  ])('refuses %s in one line, exit 2, and leaves nothing in the spool directory', async (_, cells) => {
    const path = join(temp.dir, 'bomb.xlsx');
    await craftWorkbook(path, [{ name: 'B', data: row(1, text('email')) + row(2, cells) }]);
    const dir = spoolDir();
    const err = await usageError(open(path, { spoolDir: dir }));
    expect(err.message).toMatch(/bomb\.xlsx: xl\/worksheets\/sheet1\.xml holds more than 2 MB of text without markup/);
    expect(err.exitCode).toBe(2);
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('a read stopped by a signal leaves nothing in the spool directory', async () => {
    const path = join(temp.dir, 'long.xlsx');
    const rows = Array.from({ length: 20_000 }, (_, i) => row(i + 2, text(`user${i}@example.com`))).join('');
    await craftWorkbook(path, [{ name: 'L', data: row(1, text('email')) + rows }]);
    const dir = spoolDir();
    const stop = new AbortController();
    stop.abort(new Error('stopped'));
    await expect(open(path, { spoolDir: dir, signal: stop.signal })).rejects.toThrow('stopped');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('refuses a zip that is no workbook or a binary one, and names the sheets when --sheet names none of them', async () => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('hello'), 'hello.txt');
    zip.end();
    const archive = join(temp.dir, 'archive.zip');
    await pipeline(zip.outputStream, createWriteStream(archive));
    const notBook = await usageError(open(archive, { spoolDir: spoolDir() }));
    expect(notBook.message).toBe(`${archive}: not an Excel workbook (a zip archive without a workbook part)`);
    const binary = new yazl.ZipFile();
    const officeDocument = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';
    binary.addBuffer(
      Buffer.from(
        `<Relationships><Relationship Id="rId1" Type="${officeDocument}" Target="xl/workbook.bin"/></Relationships>`,
      ),
      '_rels/.rels',
    );
    binary.addBuffer(Buffer.from([0, 1, 2]), 'xl/workbook.bin');
    binary.end();
    const xlsb = join(temp.dir, 'book.xlsb');
    await pipeline(binary.outputStream, createWriteStream(xlsb));
    expect((await usageError(open(xlsb, { spoolDir: spoolDir() }))).message).toMatch(
      /an Excel binary workbook \(\.xlsb\)/,
    );
    const path = join(temp.dir, 'two.xlsx');
    await craftWorkbook(path, [
      { name: 'Notes', data: row(1, text('n')) },
      { name: 'Contacts', data: row(1, text('email')) },
    ]);
    const missing = await usageError(open(path, { spoolDir: spoolDir(), sheet: 'Leads' }));
    expect(missing.message).toMatch(/two\.xlsx: no sheet "Leads" in this workbook/);
    expect(missing.hint).toBe('its sheets: Notes, Contacts (--sheet NAME or --sheet N)');
  });
});
