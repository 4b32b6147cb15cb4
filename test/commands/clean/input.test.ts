// `mailclean clean` on inputs shaped by other tools (encodings, Excel's `sep=` line) and on its own output, in-process
// against the sandbox over real HTTP on 127.0.0.1.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS, SERVICE_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import { TestHome } from '../../helpers/cli.js';
import { TEST_PASSWORD_COST } from '../../helpers/sandbox.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'clean');

let sandbox: SandboxHandle;
let home: TestHome;
const run = (args: string[], stdin?: string) =>
  home.run(['--api-url', sandbox.url, '--clean-url', sandbox.url, ...args], { stdin });

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, plan: 'unlimited', passwordCost: TEST_PASSWORD_COST });
  home = new TestHome();
  const reg = await run(
    ['register', '--service', 'clean', '--name', 'T', '--email', 'clean@example.com', '--password-stdin'],
    'a long password',
  );
  expect(reg.code, reg.stderr).toBe(0);
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

const rowsOf = (text: string, delimiter: string): string[][] => parse(text, { delimiter, bom: true }) as string[][];

describe('clean: input encodings', () => {
  it('Windows-1252: decoded, one note on stderr, UTF-8 out with a BOM (so Excel reads it), every row once in order', async () => {
    const out = join(home.dir, 'windows.out.csv');
    const res = await run(['clean', join(FIXTURES, 'excel-windows.csv'), '-o', out]);
    expect(res.code, res.stderr).toBe(0);
    const note = `${join(FIXTURES, 'excel-windows.csv')}: not UTF-8; read as Windows-1252 (use --encoding to choose)`;
    expect(res.stderr.split('\n').filter((l) => l === note)).toHaveLength(1);
    const bytes = readFileSync(out);
    expect([...bytes.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x46]); // a BOM, then "First Name"
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    expect(text).toContain('René,Lefèvre,rene.lefevre@example.fr,Besançon,,valid');
    const rows = rowsOf(text, ',');
    expect(rows[0]!.slice(0, 6)).toEqual([
      'First Name',
      'Last Name',
      'E-mail Address',
      'City',
      'Notes',
      'email_status',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      'René',
      'Jürgen',
      'Begoña',
      'Chloé',
      'François',
      'Åsa',
      'José',
      'José',
      'Zoë',
      '',
    ]);
    expect(rows[4]![4]).toBe('Says "merci" – often');
  });

  it('UTF-16 "Unicode text": decoded, no note, UTF-8 out with a BOM and tabs, every row once in order', async () => {
    const out = join(home.dir, 'unicode.out.txt');
    const res = await run(['clean', join(FIXTURES, 'excel-unicode.txt'), '-o', out]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('Windows-1252');
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(readFileSync(out));
    expect(text.startsWith('\ufeffEmail\tFirst name\tLast name\tCompany\temail_status\t')).toBe(true);
    const rows = rowsOf(text, '\t');
    expect(rows.slice(1).map((r) => r[2])).toEqual([
      'Kovač',
      '山田',
      'Noël',
      'Peña',
      '😀 Smile',
      'Address',
      'Kovač',
      'Email',
      'Müller',
    ]);
    expect(rows[4]![3]).toBe('Line one\r\nline two');
  });

  it('--encoding utf-8 refuses a Windows-1252 file with its line; an unknown name is exit 2 naming the flag', async () => {
    const input = join(FIXTURES, 'excel-windows.csv');
    const strict = await run(['clean', input, '--encoding', 'utf-8', '--dry-run']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`${input}:2: not valid UTF-8 (byte 0xe9)`);
    const unknown = await run(['clean', input, '--encoding', 'ebcdic', '--dry-run']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--encoding.*ebcdic/);
  });

  it('--encoding windows-1252 reads it without the note', async () => {
    const res = await run([
      'clean',
      join(FIXTURES, 'excel-windows.csv'),
      '--encoding',
      'windows-1252',
      '--format',
      'ndjson',
      '--resume',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('Windows-1252');
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r['First Name'])).toEqual([
      'René',
      'Jürgen',
      'Begoña',
      'Chloé',
      'François',
      'Åsa',
      'José',
      'José',
      'Zoë',
      '',
    ]);
  });
});

describe('clean: an output of mailclean cleaned again', () => {
  // A service run appends the six and the service's own status word.
  const RESULTS = [...RESULT_COLUMNS, 'email_provider', ...SERVICE_COLUMNS];

  it('CSV: one set of result columns, fresh, at the end; the rest of each row unchanged', async () => {
    const input = join(FIXTURES, 'hubspot.csv');
    const once = join(home.dir, 'hubspot.once.csv');
    const twice = join(home.dir, 'hubspot.twice.csv');
    expect((await run(['clean', input, '-o', once])).code).toBe(0);
    const again = await run(['clean', once, '-o', twice]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('email column "Email"');
    const first = rowsOf(readFileSync(once, 'utf8'), ',');
    const second = rowsOf(readFileSync(twice, 'utf8'), ',');
    expect(second[0]).toEqual(first[0]);
    for (const name of RESULTS) expect(second[0]!.filter((h) => h === name)).toHaveLength(1);
    expect(second).toHaveLength(first.length);
    // Same data and verdicts (the time of the check aside).
    const at = first[0]!.indexOf('email_checked_at');
    const untimed = (rows: string[][]) => rows.map((r) => r.filter((_, i) => i !== at));
    expect(untimed(second)).toEqual(untimed(first));
  });

  it('our columns are replaced wherever they stand, email_suggestion too; JSON has one set of keys', async () => {
    const input = join(home.dir, 'moved.csv');
    writeFileSync(
      input,
      'email_status,Name,email_valid,email_disposable,email_valid_domain,email_reason,email_checked_at,email_suggestion,Contact\n' +
        'stale,Ann,true,false,true,,2020-01-01,x@y.com,ann@example.com\n' +
        'stale,"Doe, Jo",,,,,,,jo@mailinator.com\n',
    );
    const csv = await run(['clean', input]);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = rowsOf(csv.stdout, ',');
    expect(rows[0]).toEqual(['Name', 'Contact', ...RESULTS]);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['Ann', 'ann@example.com', 'valid'],
      ['Doe, Jo', 'jo@mailinator.com', 'risky'],
    ]);
    expect(csv.stdout.split('\n')[2]!.startsWith('"Doe, Jo",jo@mailinator.com,risky,')).toBe(true);

    const json = await run(['clean', input, '--format', 'json', '--resume']);
    expect(json.code, json.stderr).toBe(0);
    const objects = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(Object.keys(objects[0]!)).toEqual(['Name', 'Contact', ...RESULTS]);
    expect(objects[0]).toMatchObject({ Name: 'Ann', email_status: 'valid' });
  });
});

describe("clean: Excel's sep= line", () => {
  it('sets the delimiter, stays first in CSV output, and is left out of JSON', async () => {
    const input = join(home.dir, 'sep.csv');
    writeFileSync(input, 'sep=;\r\nEmail;Name,Town\r\nann@example.com;Ann,Paris\r\nbob@example.com;Bob,Rome\r\n');
    const csv = await run(['clean', input]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stderr).toContain('2 rows, email column "Email"');
    const lines = csv.stdout.split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'sep=;',
      `Email;Name,Town;${[...RESULT_COLUMNS, 'email_provider', ...SERVICE_COLUMNS].join(';')}`,
      expect.stringMatching(/^ann@example\.com;Ann,Paris;valid;/),
    ]);
    const json = await run(['clean', input, '--format', 'json', '--resume']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Array<Record<string, unknown>>).map((r) => [r.Email, r['Name,Town']])).toEqual([
      ['ann@example.com', 'Ann,Paris'],
      ['bob@example.com', 'Bob,Rome'],
    ]);
  });
});
