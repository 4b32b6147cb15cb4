// Excel workbooks in and out of `clean`: workbooks LibreOffice and openpyxl wrote go through and come back with every
// cell's type (read here from the written XML itself, not through mailclean's reader); a CSV becomes a workbook of
// text; and the format registry is the one list --format, the help, completion and the README name.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { OUTPUT_FORMATS } from '../../../src/clean/write/formats/index.js';
import { useHome } from '../../helpers/cli.js';
import { closedUdpPort } from '../../helpers/dns-server.js';
import { craftWorkbook, type StoredCell, sheetCells, styleFormats, workbookParts } from '../../helpers/workbook.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'clean', 'workbooks');

/** The sheet's cells by header name, for each row after the header; with the styles' format codes. */
async function written(path: string) {
  const parts = await workbookParts(path);
  const rows = sheetCells(parts.get('xl/worksheets/sheet1.xml')!);
  const formats = styleFormats(parts.get('xl/styles.xml')!);
  const header = rows[0]!.map((c) => c.value);
  const byName = rows.slice(1).map((row) => {
    const cells: Record<string, StoredCell & { format?: string }> = {};
    row.forEach((cell, column) => {
      if (cell.value !== '' || cell.t) cells[header[column]!] = { ...cell, format: formats[Number(cell.s ?? 0)] };
    });
    return cells;
  });
  return { parts, rows, header, byName };
}

describe('clean with Excel workbooks', () => {
  const home = useHome();
  const offline = async () => ({ MAILCLEAN_DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` });

  it("LibreOffice's workbook comes back with its types: numbers, dates, times, text that looks like a number, results", async () => {
    const out = join(home().dir, 'out.xlsx');
    const res = await home().run(['clean', join(FIXTURES, 'libreoffice-contacts.xlsx'), '-o', out], {
      env: await offline(),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /libreoffice-contacts\.xlsx: read sheet "Contacts" \(1 other sheet: Notes; --sheet NAME or N reads another\)/,
    );
    const { parts, rows, header, byName } = await written(out);
    expect(header).toEqual([
      'Name',
      'Email',
      'Zip',
      'Phone',
      'Score',
      'Spent',
      'Joined',
      'Last seen',
      'Call at',
      'Subscribed',
      'Double',
      'Label',
      'Note',
      ...RESULT_COLUMNS,
      'email_suggestion',
      'email_provider',
    ]);
    const ada = byName[0]!;
    expect(ada.Zip).toMatchObject({ t: 'inlineStr', value: '02134' });
    // LibreOffice names General as a format of its own (164): the cell keeps the workbook's plain style.
    expect(ada.Score).toMatchObject({ t: undefined, value: '12', format: 'General' });
    expect(ada.Spent).toMatchObject({ t: undefined, value: '1234.5', format: '#,##0.00' });
    expect(ada.Joined).toMatchObject({ t: undefined, value: '45356', format: 'yyyy\\-mm\\-dd' });
    expect(ada['Last seen']).toMatchObject({ value: '45356.3854166667', format: 'dd/mm/yyyy\\ hh:mm' });
    expect(ada['Call at']).toMatchObject({ value: '0.604166666666667', format: 'hh:mm' });
    // A formula's result, as a value: no formula element anywhere in what mailclean writes.
    expect(ada.Double).toMatchObject({ t: undefined, value: '24', formula: false });
    expect(ada.Label).toMatchObject({ t: 'inlineStr', value: 'ADA' });
    expect(ada.Note).toMatchObject({ t: 'inlineStr', value: '=1+2' });
    expect([...parts.values()].some((xml) => xml.includes('<f>') || xml.includes('<f '))).toBe(false);
    // The results typed: booleans, and the time of the check as a date-time.
    expect(ada.email_disposable).toMatchObject({ t: 'b', value: '0' });
    expect(ada.email_checked_at).toMatchObject({ t: undefined, format: 'yyyy-mm-dd hh:mm:ss' });
    expect(Number(ada.email_checked_at!.value)).toBeGreaterThan(45_000);
    expect(byName[1]!.Label).toMatchObject({ t: 'e', value: '#DIV/0!' });
    // The header stays readable: bold, frozen above the rows, columns as wide as their text, a filter on each.
    const bold = rows[0]![0]!.s;
    expect(rows[0]!.every((c) => c.s === bold)).toBe(true);
    const xfs = [
      ...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(parts.get('xl/styles.xml')!)?.[1] ?? '').matchAll(/<xf [^>]*>/g),
    ];
    const font = Number(/fontId="(\d+)"/.exec(xfs[Number(bold)]![0])![1]);
    const fonts = [
      ...(/<fonts[^>]*>(.*?)<\/fonts>/s.exec(parts.get('xl/styles.xml')!)?.[1] ?? '').matchAll(/<font>(.*?)<\/font>/g),
    ];
    expect(fonts[font]![1]).toMatch(/^<b\/>/);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toMatch(/<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"\/>/);
    expect(sheet).toMatch(/<col min="2" max="2" width="18" customWidth="1"\/>/);
    expect(sheet).toMatch(/<autoFilter ref="A1:W4"\/>/);
  });

  it.each(['libreoffice-contacts.xlsx', 'openpyxl-contacts.xlsx'])(
    "%s written over (-o onto a copy, --in-place): every other part kept as it was, its styles followed by the sheet's",
    async (name) => {
      const book = join(home().dir, name);
      copyFileSync(join(FIXTURES, name), book);
      const before = await workbookParts(book);
      const res = await home().run(['clean', book, '-o', book, '--in-place'], { env: await offline() });
      expect(res.code, res.stderr).toBe(0);
      const after = await workbookParts(book);
      // The original, whole, under a name spreadsheet programs open.
      expect(await workbookParts(join(home().dir, name.replace('.xlsx', '.bak.xlsx')))).toEqual(before);
      const changed = [...before.keys()].filter((part) => after.get(part) !== before.get(part));
      // The sheet read is the cleaned sheet; the styles gain its own at the end; nothing else differs or is missing.
      expect(changed.sort()).toEqual(['xl/styles.xml', 'xl/worksheets/sheet1.xml'].sort());
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      const xfs = (xml: string) => /<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(xml)![1]!;
      expect(xfs(after.get('xl/styles.xml')!).startsWith(xfs(before.get('xl/styles.xml')!))).toBe(true);
      expect(after.get('xl/worksheets/sheet2.xml')).toBe(before.get('xl/worksheets/sheet2.xml'));
      // The cleaned sheet: the list's rows with their results.
      const { header, byName } = await written(book);
      expect(header).toContain('email_status');
      expect(byName[0]!.Zip).toMatchObject({ value: '02134' });
    },
  );

  it("openpyxl's workbook: booleans stay booleans, dates keep their format; formulas saved without results are named", async () => {
    const out = join(home().dir, 'out.xlsx');
    const res = await home().run(['clean', join(FIXTURES, 'openpyxl-contacts.xlsx'), '-o', out], {
      env: await offline(),
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /warning: 2 formula cells of sheet "Contacts" had no saved result and were read as empty/,
    );
    const { byName } = await written(out);
    expect(byName[1]!.Spent).toMatchObject({ t: undefined, value: '0.3' });
    expect(byName[0]!.Subscribed).toMatchObject({ t: 'b', value: '1' });
    expect(byName[1]!.Subscribed).toMatchObject({ t: 'b', value: '0' });
    expect(byName[0]!['Last seen']).toMatchObject({ value: '45356.38541666666', format: 'yyyy-mm-dd h:mm:ss' });
  });

  it('a number keeps every digit stored, though shown as Excel does (15 significant digits) in a CSV', async () => {
    const input = join(home().dir, 'digits.xlsx');
    const number = (v: string) => `<c><v>${v}</v></c>`;
    const inline = (t: string) => `<c t="inlineStr"><is><t>${t}</t></is></c>`;
    await craftWorkbook(input, [
      {
        name: 'Sums',
        data: `<row>${inline('email')}${inline('total')}</row><row>${inline('ann@example.com')}${number('0.30000000000000004')}</row>`,
      },
    ]);
    const xlsx = join(home().dir, 'out.xlsx');
    const csv = join(home().dir, 'out.csv');
    expect((await home().run(['clean', input, '-o', xlsx], { env: await offline() })).code).toBe(0);
    expect((await written(xlsx)).byName[0]!.total).toMatchObject({ t: undefined, value: '0.30000000000000004' });
    expect((await home().run(['clean', input, '-o', csv], { env: await offline() })).code).toBe(0);
    expect(readFileSync(csv, 'utf8').split('\n')[1]).toMatch(/^ann@example\.com,0\.3,/);
  });

  it("a workbook output's header is the input's, a repeated name included", async () => {
    const input = join(home().dir, 'dup.csv');
    writeFileSync(input, 'email,name,email\nann@example.com,Ann,ann@example.org\n');
    const out = join(home().dir, 'dup.xlsx');
    expect((await home().run(['clean', input, '-o', out], { env: await offline() })).code).toBe(0);
    expect((await written(out)).header.slice(0, 4)).toEqual(['email', 'name', 'email', 'email_status']);
  });

  it('a workbook written as JSON: numbers and booleans typed, dates and times in ISO order however the sheet shows them', async () => {
    const input = join(FIXTURES, 'libreoffice-contacts.xlsx');
    const out = join(home().dir, 'out.json');
    for (const raw of [[], ['--raw-values']]) {
      expect((await home().run(['clean', input, '-o', out, ...raw], { env: await offline() })).code).toBe(0);
      const [ada] = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
      expect([ada!.Joined, ada!['Last seen'], ada!['Call at']], raw.join('')).toEqual([
        '2024-03-05',
        '2024-03-05 09:15:00',
        '14:30:00',
      ]);
    }
  });

  it('a workbook written as CSV: cells as the sheet shows them (--raw-values: as stored), a BOM for Excel, formulas neutralised unless --no-escape-formulas', async () => {
    const input = join(FIXTURES, 'libreoffice-contacts.xlsx');
    const out = join(home().dir, 'out.csv');
    expect((await home().run(['clean', input, '-o', out], { env: await offline() })).code).toBe(0);
    const csv = readFileSync(out, 'utf8');
    expect(csv.startsWith('\uFEFFName,Email,Zip,')).toBe(true);
    expect(csv.split('\n')[1]).toMatch(
      /^Ada Lovelace,ada@example\.com,02134,"'\+44 20 7946 0000",12,"1,234\.50",2024-03-05,05\/03\/2024 09:15,14:30,1,24,ADA,"'=1\+2",/,
    );
    expect((await home().run(['clean', input, '-o', out, '--raw-values'], { env: await offline() })).code).toBe(0);
    expect(readFileSync(out, 'utf8').split('\n')[1]).toMatch(
      /^Ada Lovelace,ada@example\.com,02134,"'\+44 20 7946 0000",12,1234\.5,2024-03-05,2024-03-05 09:15:00,14:30:00,1,24,/,
    );
    expect((await home().run(['clean', input, '-o', out, '--no-escape-formulas'], { env: await offline() })).code).toBe(
      0,
    );
    expect(readFileSync(out, 'utf8').split('\n')[1]).toMatch(/,\+44 20 7946 0000,12,.*,ADA,=1\+2,/);
  });

  it('a CSV becomes a workbook of text; a cell longer than Excel allows is cut to fit, with a warning naming its line', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email,zip,bio\nann@example.com,02134,short\nbob@example.com,12,${'x'.repeat(40_000)}\n`);
    const out = join(home().dir, 'list.xlsx');
    const res = await home().run(['clean', input, '-o', out], { env: await offline() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /warning: 1 cell was longer than Excel's 32,767 characters and cut to fit the workbook: line 3 \(a CSV or JSON output keeps them whole\)/,
    );
    const { byName } = await written(out);
    expect(byName.map((r) => [r.zip?.t, r.zip?.value])).toEqual([
      ['inlineStr', '02134'],
      ['inlineStr', '12'],
    ]);
    expect(byName[1]!.bio!.value).toHaveLength(32_767);
    const tty = await home().run(['clean', input, '--format', 'xlsx'], { tty: true, env: await offline() });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/--format xlsx: a workbook is not for a terminal\nhint: pass -o FILE\.xlsx/);
    const sheet = await home().run(['clean', input, '--sheet', '1']);
    expect(sheet.code).toBe(2);
    expect(sheet.stderr).toMatch(/--sheet: .*list\.csv is not an Excel workbook/);
  });

  it('every format of the registry is offered by --format, named by the README, and completed', async () => {
    const help = await home().run(['clean', '--help']);
    const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
    const bash = await home().run(['completion', 'bash']);
    for (const format of OUTPUT_FORMATS) {
      expect(help.stdout, format).toMatch(new RegExp(`choices: [^)]*"${format}"`));
      expect(readme, format).toContain(`--format ${format}`);
      expect(bash.stdout, format).toContain(format);
    }
  });
});
