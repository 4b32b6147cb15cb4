// Rows with more or fewer fields than the header: kept (their text untouched, results lined up under their names, a
// longer row's extra fields after the results), counted and listed by line at the end of the run and in the summary;
// `--strict` refuses the file as before.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS, SERVICE_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { expectError, TestHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

// A run with the service: the six, then the service's own status word.
const RESULTS = [...RESULT_COLUMNS, 'email_provider', ...SERVICE_COLUMNS];

const LINES = [
  'Name,City,Email',
  'Ann,Paris,ann@example.com',
  'Bob,bob@example.org', // a field missing: no email field at all
  'Cy,Rome,cy@example.com,extra', // one too many: the extra field is kept
  'Dee',
  'Eve,Oslo,eve@example.com',
];

describe('clean: ragged rows', () => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  let input: string;
  beforeEach(async () => {
    home = new TestHome();
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home, sandbox);
    input = join(home.dir, 'ragged.csv');
    writeFileSync(input, `${LINES.join('\n')}\n`);
  });
  afterEach(() => home.cleanup());

  it('are kept and counted: a short row padded, a long one its extra fields after the results, each result under its name', async () => {
    const out = join(home.dir, 'out.csv');
    const summary = join(home.dir, 'summary.json');
    const res = await home.run(['clean', input, '-o', out, '--summary-json', summary]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /\nwarning: 3 rows had more or fewer fields than the header \(3\): lines 3, 4, 5; kept as they are \(--strict refuses such a file\)\n$/,
    );
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines[0]).toBe(`Name,City,Email,${RESULTS.join(',')}`);
    for (const [i, line] of LINES.entries()) {
      if (i > 0 && i !== 3) expect(lines[i]!.startsWith(`${line},`), line).toBe(true);
    }
    const rows = parse(lines.join('\n'), { relax_column_count: true }) as string[][];
    const width = 3 + RESULTS.length;
    expect(rows.map((r) => r.length)).toEqual([width, width, width, width + 1, width, width]);
    expect(rows[2]!.slice(0, 4)).toEqual(['Bob', 'bob@example.org', '', 'invalid']);
    expect(rows[2]![7]).toBe('short_row');
    // Filtering by email_status in a spreadsheet sees this row's own status, its extra field last.
    expect(rows[3]!.slice(0, 4)).toEqual(['Cy', 'Rome', 'cy@example.com', 'valid']);
    expect(rows[3]!.at(-1)).toBe('extra');
    expect(lines[3]).toBe(`Cy,Rome,cy@example.com,${rows[3]!.slice(3, -1).join(',')},extra`);
    expect(rows[4]!.slice(0, 4)).toEqual(['Dee', '', '', 'invalid']);

    const s = JSON.parse(readFileSync(summary, 'utf8'));
    expect(s).toMatchObject({
      rows: 5,
      unique: 3,
      blank: 2,
      malformed: 0,
      reasons: { short_row: 2 },
      ragged: { rows: 3, lines: [3, 4, 5] },
    });
    expect(sandbox.stats().addressesCharged).toBe(3);
  });

  it('NDJSON: a missing field is null, an extra one is column_N after the results', async () => {
    const res = await home.run(['clean', input, '--format', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows[1]).toMatchObject({
      Name: 'Bob',
      City: 'bob@example.org',
      Email: null,
      email_status: 'invalid',
      email_reason: 'short_row',
    });
    expect(Object.keys(rows[2]!)).toEqual(['Name', 'City', 'Email', ...RESULTS, 'column_4']);
    expect(rows[2]).toMatchObject({ Email: 'cy@example.com', column_4: 'extra', email_status: 'valid' });
    expect(rows[3]).toMatchObject({ Name: 'Dee', City: null, Email: null, email_reason: 'short_row' });
    expect(Object.keys(rows[0]!)).toEqual(['Name', 'City', 'Email', ...RESULTS]);
  });

  it('the dry run counts them too; many are listed by their first lines', async () => {
    const many = [
      'Email,Name',
      ...Array.from({ length: 14 }, (_, i) => (i % 2 ? `u${i}@example.com,U` : `u${i}@example.com`)),
    ];
    writeFileSync(input, `${many.join('\n')}\n`);
    const res = await home.run(['clean', input, '--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({
      rows: 14,
      unique: 14,
      ragged: { rows: 7, lines: [2, 4, 6, 8, 10, 12, 14] },
    });
    expect(res.stderr).toContain(
      'warning: 7 rows had more or fewer fields than the header (2): lines 2, 4, 6, 8, 10, and 2 more;',
    );
  });

  it('--strict refuses the file at its first ragged row: exit 2 naming file and line, nothing written or sent', async () => {
    const out = join(home.dir, 'never.csv');
    const res = await home.run(['clean', input, '--strict', '-o', out]);
    expectError(res, 2, `error: ${input}:3: 2 fields where the header has 3`);
    expect(res.stderr).toMatch(
      /^hint: a field containing ",", a quote or a line break must be in double quotes; without --strict such rows are kept and counted$/m,
    );
    expect(existsSync(out)).toBe(false);
    expect(sandbox.stats().cleanRequests).toBe(0);
  });
});
