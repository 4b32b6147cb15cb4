// A cleaned list as the review reads and writes it: which rows it shows, and the file written back, byte for byte
// where a row did not change.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VerifyResult } from '../../src/library/types.js';
import { decisionsChange, verdictsChange } from '../../src/review/changes.js';
import { type Decision, Review } from '../../src/review/decisions.js';
import { fixedRows, openList, reviewItems } from '../../src/review/list.js';
import { rewriteList } from '../../src/review/rewrite.js';

const HEAD = 'name,email,email_status,email_valid,email_disposable,email_valid_domain,email_reason,email_checked_at';
const CLEANED = [
  `${HEAD},email_free,email_role,email_suggestion`,
  'Ann,ann@gmial.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,ann@gmail.com',
  '"Lee, Bob",bob@example.com,valid,true,false,true,,2026-01-01T00:00:00Z,false,false,',
  'Cy,cy@gmial.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,cy@gmail.com',
  'Di,di@yaho.com,risky,true,false,true,possible_typo,2026-01-01T00:00:00Z,false,false,di@yahoo.com',
];

describe('a list under review', () => {
  let dir: string;
  const spoolDir = () => join(dir, 'spool');
  const write = (name: string, text: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const open = (path: string) => openList({ path, spoolDir: spoolDir() });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-review-list-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("shows the rows with a suggestion and no decision, with the row's other cells and verdict", async () => {
    const path = write('c.csv', `${CLEANED.join('\n')}\n`);
    const layout = await open(path);
    const items = await reviewItems(layout);
    expect(items.map((i) => [i.row, i.line, i.typed, i.fix])).toEqual([
      [0, 2, 'ann@gmial.com', 'ann@gmail.com'],
      [2, 4, 'cy@gmial.com', 'cy@gmail.com'],
      [3, 5, 'di@yaho.com', 'di@yahoo.com'],
    ]);
    expect(items[0]!.context).toEqual([['name', 'Ann']]);
    expect(items[0]!.status).toBe('risky (possible_typo)');
  });

  it('a list cleaned by the service (no email_suggestion): the suggestions are computed; decided rows are left out', async () => {
    const path = write(
      's.csv',
      'email,city,email_fixed\nann@gmial.com,Oslo,\nbob@hotmial.com,Rome,bob@hotmail.com\nann@gmail.com,Nice,\n',
    );
    const items = await reviewItems(await open(path));
    expect(items.map((i) => [i.typed, i.fix, i.context])).toEqual([
      ['ann@gmial.com', 'ann@gmail.com', [['city', 'Oslo']]],
    ]);
  });

  it.each([
    ['no header', 'ann@gmial.com,x\nbob@gmial.com,y\n', /n\.csv: has no header row; review reads a list with one/],
    ['not UTF-8', Buffer.from('name,email\nJos\xe9,ann@gmial.com\n', 'latin1'), /n\.csv: is not UTF-8/],
  ])('refuses %s in one line', async (_case, text, message) => {
    const path = write('n.csv', text);
    await expect(open(path)).rejects.toThrow(message);
  });

  it('writes decisions back: changed rows field by field, every other row as its bytes (CRLF, BOM, quotes)', async () => {
    const text = `\uFEFF${CLEANED.join('\r\n')}\r\n`;
    const path = write('c.csv', text);
    const layout = await open(path);
    const review = new Review(await reviewItems(layout));
    review.accept();
    review.reject();
    review.accept('=d@yahoo.com');
    const change = decisionsChange(review.decisions(), layout.header);
    await rewriteList(layout, change);
    const lines = readFileSync(path, 'utf8').split('\r\n');
    expect(lines[0]).toBe(`\uFEFF${CLEANED[0]},email_fixed`);
    expect(lines[1]).toBe(`${CLEANED[1]},ann@gmail.com`);
    expect(lines[2]).toBe(`${CLEANED[2]},`);
    expect(lines[3]).toBe(`${CLEANED[3]!.replace(/,cy@gmail\.com$/, ',')},`);
    // An address typed instead never reaches a spreadsheet as a formula.
    expect(lines[4]).toBe(`${CLEANED[4]},"'=d@yahoo.com"`);
    expect(lines[5]).toBe('');
    expect(change.stale).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Read again, nothing is left to review: every row with a suggestion was decided.
    expect(await reviewItems(await open(path))).toEqual([]);
  });

  it('a rejection in a list without email_suggestion adds the column, so that the suggestion does not come back', async () => {
    const path = write('s.csv', 'email,city\nann@gmial.com,Oslo\nbob@gmial.com,Rome\nbob@example.com,Nice');
    const layout = await open(path);
    const review = new Review(await reviewItems(layout));
    review.reject();
    await rewriteList(layout, decisionsChange(review.decisions(), layout.header));
    expect(readFileSync(path, 'utf8')).toBe(
      'email,city,email_suggestion\nann@gmial.com,Oslo,\nbob@gmial.com,Rome,bob@gmail.com\nbob@example.com,Nice,',
    );
    expect((await reviewItems(await open(path))).map((i) => i.typed)).toEqual(['bob@gmial.com']);
  });

  it("keeps Excel's sep= line and the list's delimiter", async () => {
    const path = write('x.csv', 'sep=;\r\nname;email\r\nAnn;ann@gmial.com\r\nBob;bob@example.com');
    const layout = await open(path);
    const review = new Review(await reviewItems(layout));
    review.accept();
    await rewriteList(layout, decisionsChange(review.decisions(), layout.header));
    expect(readFileSync(path, 'utf8')).toBe(
      'sep=;\r\nname;email;email_fixed\r\nAnn;ann@gmial.com;ann@gmail.com\r\nBob;bob@example.com;',
    );
  });

  it('a list of bare addresses with a header becomes a CSV with the new column', async () => {
    const path = write('b.txt', 'email\nann@gmial.com\nbob@example.com\n');
    const layout = await open(path);
    const review = new Review(await reviewItems(layout));
    review.accept();
    await rewriteList(layout, decisionsChange(review.decisions(), layout.header));
    expect(readFileSync(path, 'utf8')).toBe('email,email_fixed\nann@gmial.com,ann@gmail.com\nbob@example.com,\n');
  });

  it('a decision whose row changed meanwhile is left out and counted', async () => {
    const path = write('c.csv', `${CLEANED.join('\n')}\n`);
    const layout = await open(path);
    const decisions = new Map<number, Decision>([[0, { row: 0, typed: 'other@gmial.com', kind: 'reject' }]]);
    const change = decisionsChange(decisions, layout.header);
    await rewriteList(layout, change);
    expect(change.stale).toBe(1);
    expect(readFileSync(path, 'utf8').split('\n')[1]).toBe(CLEANED[1]);
  });

  it("writes each checked fix's verdict into its row, and nothing where the fix was not checked", async () => {
    const path = write('f.csv', `${CLEANED[0]},email_fixed\n${CLEANED[1]},ann@gmail.com\n${CLEANED[3]},cy@gmail.com\n`);
    const layout = await open(path);
    const fixes = await fixedRows(layout);
    expect([...fixes]).toEqual([
      [0, 'ann@gmail.com'],
      [1, 'cy@gmail.com'],
    ]);
    const verdict = (address: string, status: string): VerifyResult => ({
      address,
      status,
      reason: '',
      valid: status === 'valid' ? true : null,
      disposable: false,
      validDomain: status === 'valid' ? true : null,
      free: true,
      role: false,
      provider: 'google',
      suggestion: null,
      serviceStatus: null,
      checker: 'service',
      fromCache: false,
      checkedAt: status === 'valid' ? '2026-02-02T00:00:00Z' : null,
    });
    const verdicts = new Map([
      ['ann@gmail.com', verdict('ann@gmail.com', 'valid')],
      ['cy@gmail.com', verdict('cy@gmail.com', 'unchecked')],
    ]);
    await rewriteList(layout, verdictsChange(fixes, verdicts, layout.header));
    expect(readFileSync(path, 'utf8').split('\n').slice(1, 3)).toEqual([
      'Ann,ann@gmial.com,valid,true,false,true,,2026-02-02T00:00:00Z,true,false,ann@gmail.com,ann@gmail.com',
      `${CLEANED[3]},cy@gmail.com`,
    ]);
  });
});
