// Excel workbooks in and out of `clean`: real workbooks written and read back by exceljs, one with several sheets;
// and the format registry as the one list --format, the help, completion and the README name.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { OUTPUT_FORMATS } from '../../../src/clean/write/formats/index.js';
import { useHome } from '../../helpers/cli.js';
import { closedUdpPort } from '../../helpers/dns-server.js';

/** A workbook with a sheet of notes and the list (a link, rich text and a date): the notes first, unless `listFirst`. */
async function workbook(path: string, listFirst = false): Promise<void> {
  const book = new ExcelJS.Workbook();
  if (!listFirst) book.addWorksheet('Notes').addRow(['exported from the CRM']);
  const list = book.addWorksheet('Contacts');
  list.addRow(['Name', 'Email', 'Joined']);
  list.addRow(['Ada', 'ada@example.com', new Date('2026-01-02T00:00:00Z')]);
  list.addRow(['Bob', { text: 'bob@@x', hyperlink: 'mailto:bob@@x' }]);
  list.addRow(['Cy', { richText: [{ text: 'cy@' }, { text: 'gmial.com' }] }]);
  if (listFirst) book.addWorksheet('Notes').addRow(['exported from the CRM']);
  await book.xlsx.writeFile(path);
}

async function rowsOf(path: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  expect(book.worksheets).toHaveLength(1);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('clean with Excel workbooks', () => {
  const home = useHome();
  const offline = async () => ({ MAILCLEAN_DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` });

  it('reads the sheet --sheet names and writes a workbook (-o out.xlsx): columns by name, results as typed cells', async () => {
    const input = join(home().dir, 'book.xlsx');
    await workbook(input);
    const out = join(home().dir, 'out.xlsx');
    const res = await home().run(['clean', input, '--sheet', 'Contacts', '-o', out], { env: await offline() });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/3 rows, email column "Email"/);
    const rows = await rowsOf(out);
    expect(rows[0]).toEqual(['Name', 'Email', 'Joined', ...RESULT_COLUMNS, 'email_suggestion']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[7]])).toEqual([
      ['Ada', 'ada@example.com', '2026-01-02T00:00:00.000Z', 'unknown', 'dns_unavailable'],
      ['Bob', 'bob@@x', undefined, 'invalid', 'syntax'],
      ['Cy', 'cy@gmial.com', undefined, 'risky', 'possible_typo'],
    ]);
    expect(rows[3]![4]).toBe(false);
    expect(rows[3]![3 + RESULT_COLUMNS.length]).toBe('cy@gmail.com');
    // email_free and email_role, typed: gmial.com is no provider; a syntax error has no address to say it of.
    expect(rows.slice(1).map((r) => [r[9], r[10]])).toEqual([
      [false, false],
      [undefined, undefined],
      [false, false],
    ]);
  });

  it('takes the first sheet by default, a sheet by number, and names the sheets when one is missing', async () => {
    const listFirst = join(home().dir, 'list-first.xlsx');
    await workbook(listFirst, true);
    const first = await home().run(['clean', listFirst, '--dry-run', '--json'], { env: await offline() });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ rows: 3, unique: 2 });
    const input = join(home().dir, 'book.xlsx');
    await workbook(input);
    const second = await home().run(['clean', input, '--sheet', '2', '--dry-run', '--json'], { env: await offline() });
    expect(JSON.parse(second.stdout)).toMatchObject({ rows: 3, unique: 2 });
    const missing = await home().run(['clean', input, '--sheet', 'Leads']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/book\.xlsx: no sheet "Leads" in this workbook\nhint: its sheets: Notes, Contacts/);
  });

  it('a CSV becomes a workbook; a workbook is never written to a terminal; --sheet needs a workbook', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email,name\nann@example.com,Ann\n');
    const out = join(home().dir, 'list.xlsx');
    expect((await home().run(['clean', input, '-o', out], { env: await offline() })).code).toBe(0);
    expect((await rowsOf(out)).map((r) => r.slice(0, 4))).toEqual([
      ['email', 'name', 'email_status', 'email_valid'],
      ['ann@example.com', 'Ann', 'unknown', undefined],
    ]);
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
