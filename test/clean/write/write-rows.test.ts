// The write pass (src/clean/write/write-rows.ts) with the CSV sink: each row goes out as the bytes it came in with, whether the
// fast reader gave them or csv-parse took over, and rows larger than the writer's staging buffer come out whole.
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { cellVerdict, type Verdict } from '../../../src/clean/verdict/verdict.js';
import { writeRows } from '../../../src/clean/write/write-rows.js';
import { open, put, tempDir } from '../scan/input/helpers.js';

const temp = tempDir();
afterAll(() => temp.remove());

async function cleanedCsv(content: string): Promise<string[]> {
  const layout = await open(put(temp.dir, 'list.csv', content));
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  // The engine's verdicts carry the address's kind (their cells are made once); a service's do not (made per row).
  const shared: Verdict = { ...cellVerdict('', 'role'), status: 'risky', free: false, role: true };
  const perRow = cellVerdict('', 'syntax');
  await writeRows(layout, (key) => (key.startsWith('ann@') ? perRow : shared), { format: 'csv', stdout });
  return Buffer.concat(chunks).toString('utf8').split(layout.lineEnding);
}

const RESULTS = ',risky,false,,,role,,false,true';
const PER_ROW = ',invalid,false,,,syntax,,false,false';
const withoutResults = (line: string) => line.slice(0, line.lastIndexOf(line.endsWith(RESULTS) ? RESULTS : PER_ROW));

describe('writeRows: CSV rows as they came in', () => {
  it('keeps every byte of each row, before and after csv-parse takes over, and fills short rows to the header', async () => {
    const rows = [
      'email,name,note',
      'zoë@example.com,Zoë,"café, ""quoted""\nacross lines"',
      'ann@example.com,Ann,日本語',
      'short@example.com,Short',
      // A quote inside an unquoted field: the fast reader hands this row and the rest to csv-parse.
      'bob@example.com,Bo"b,x',
      'cy@example.com,Çy,"ü"',
    ];
    const lines = await cleanedCsv(`${rows.join('\r\n')}\r\n`);
    expect(lines[0]).toMatch(/^email,name,note,email_status,/);
    expect(lines.slice(1, -1).map(withoutResults)).toEqual([rows[1], rows[2], `${rows[3]},`, rows[4], rows[5]]);
    expect(lines.slice(1, -1).map((line) => line.endsWith(PER_ROW))).toEqual([false, true, false, false, false]);
    expect(lines.at(-1)).toBe('');
  });

  it('writes rows larger than its staging buffer whole, in order', async () => {
    const huge = `"${'é'.repeat(200_000)}"`;
    const rows = ['email,note', `a@example.com,${huge}`, 'b@example.com,small', `c@example.com,${'x'.repeat(100_000)}`];
    const lines = await cleanedCsv(`${rows.join('\n')}\n`);
    expect(lines.slice(1, -1)).toEqual(rows.slice(1).map((row) => `${row}${RESULTS}`));
  });
});
