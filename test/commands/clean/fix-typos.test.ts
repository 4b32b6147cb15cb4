// --fix-typos: a row whose address has a mistyped domain is checked, deduplicated and paid as its fix, never as the
// typo. Against the sandbox over HTTP (both answer shapes): what it charges, what the cache then holds, the journal of
// a rerun and a resume, the columns of both modes in CSV, JSON and XLSX, the summary and the report; with the built-in
// engine on a loopback DNS server; and a bad value of the flag.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestHome, useHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';
import { sheetCells, workbookParts } from '../../helpers/workbook.js';

const LINES = [
  'email,name',
  'ann@gmial.com,Ann typo',
  'ann@gmail.com,Ann',
  'Bob <bob@hotmial.com>,Bob',
  'cy@yahoo.con,Cy',
  'di@example.org,Di',
  'not-an-address,Bad',
];
const LIST = `${LINES.join('\n')}\n`;
/** The addresses the list is checked as with --fix-typos: three typos fixed, one of them a fix already in the list. */
const FIXED = ['ann@gmail.com', 'bob@hotmail.com', 'cy@yahoo.com', 'di@example.org'];
const FIXES = { 'gmial.com → gmail.com': 1, 'hotmial.com → hotmail.com': 1, 'yahoo.con → yahoo.com': 1 };
const FAST = ['--no-precheck', '--rate', '1000/1s'];

type Row = Record<string, string>;
const rowsOf = (csv: string) => parse(csv, { columns: true }) as Row[];

/** The addresses the service answered for this account (the verdict cache keeps each answer it gave). */
async function answered(home: TestHome): Promise<string[]> {
  const db = new DatabaseSync((await home.run(['cache', 'path'])).stdout.trim());
  try {
    return (db.prepare('SELECT key FROM verdicts ORDER BY key').all() as Array<{ key: string }>).map((r) => r.key);
  } finally {
    db.close();
  }
}

describe.each(['spec', 'alt'] as const)('clean --fix-typos with the service (%s shape)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();
  const file = (name: string, text = LIST) => {
    const path = join(home().dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('pays for each fix once and never for a typo; the cells untouched, email_fixed and its verdict; counted', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = file('list.csv');
    const dry = await home().run(['clean', input, '--fix-typos', '--dry-run', '--json', ...FAST]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 6, unique: 4, duplicates: 1, toSend: 4, fixed: 3 });
    // The flag before the list: the list is not taken for a mode.
    const told = await home().run(['clean', '--fix-typos', input, '--dry-run', ...FAST]);
    expect(told.stdout).toMatch(/^Typos fixed +3 rows checked as their fix$/m);
    const without = await home().run(['clean', input, '--dry-run', '--json', ...FAST]);
    expect(JSON.parse(without.stdout)).toMatchObject({ unique: 5, toSend: 5 });
    expect(JSON.parse(without.stdout)).not.toHaveProperty('fixed');

    const out = join(home().dir, 'out.csv');
    const summary = join(home().dir, 'summary.json');
    const report = join(home().dir, 'report.html');
    const flags = ['-o', out, '--summary-json', summary, '--report', report, ...FAST];
    const step = join(home().dir, 'step-summary.md');
    const res = await home().run(['clean', input, '--fix-typos', ...flags], { env: { GITHUB_STEP_SUMMARY: step } });
    expect(res.code, res.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);
    expect(readFileSync(step, 'utf8')).toContain('Typos fixed: 3 rows, checked as their fix.');
    expect(await answered(home())).toEqual(FIXED);
    expect(res.stderr).toContain(
      'Typos fixed: 3 rows (gmial.com → gmail.com 1, hotmial.com → hotmail.com 1, yahoo.con → yahoo.com 1).',
    );

    const text = readFileSync(out, 'utf8');
    const lines = text.split('\n');
    expect(lines[0]!.split(',').slice(-2)).toEqual(['email_checked', 'email_fixed']);
    LINES.slice(1).forEach((line, i) => expect(lines[i + 1]!.startsWith(`${line},`), line).toBe(true));
    // The sandbox calls a typo's domain a possible typo (risky): every row with an address got its fix's verdict.
    expect(rowsOf(text).map((r) => [r.email, r.email_status, r.email_fixed])).toEqual([
      ['ann@gmial.com', 'valid', 'ann@gmail.com'],
      ['ann@gmail.com', 'valid', ''],
      ['Bob <bob@hotmial.com>', 'valid', 'bob@hotmail.com'],
      ['cy@yahoo.con', 'valid', 'cy@yahoo.com'],
      ['di@example.org', 'valid', ''],
      ['not-an-address', 'invalid', ''],
    ]);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({
      spent: 4,
      unique: 4,
      fixes: { rows: 3, domains: FIXES },
    });
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('<p id="fixes" data-rows="3">');
    expect(html).toContain('<tr class="fix"><td>gmial.com → gmail.com</td><td class="num">1</td></tr>');

    // The same run again: its journal answers every fix.
    const again = await home().run(['clean', input, '--fix-typos', ...flags]);
    expect(again.code, again.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);

    // Without the flag: the columns and the summary as ever, and only the typos themselves are new to the service.
    const plain = await home().run(['clean', input, ...flags]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(7);
    expect(readFileSync(out, 'utf8').split('\n')[0]).not.toMatch(/email_fixed|email_original/);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).not.toHaveProperty('fixes');
    expect(plain.stderr).not.toContain('Typos fixed');
    expect(readFileSync(report, 'utf8')).not.toContain('Typos fixed');
  });

  it('a fix the cache holds costs nothing; a run of the list without the flag is neither resumed nor paid again', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const other = await home().run(['clean', file('other.csv', 'email\nbob@hotmail.com\n'), ...FAST]);
    expect(other.code, other.stderr).toBe(0);
    const input = file('list.csv');
    const plain = await home().run(['clean', input, ...FAST]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(1 + 5);

    // The list's journal holds the typos' answers: this run keeps its own, and asks the cache for the rest.
    const fixed = await home().run(['clean', input, '--fix-typos', '--format', 'ndjson', ...FAST]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/^3 addresses answered within 30 days come from the cache/m);
    expect(sandbox.stats().addressesCharged).toBe(1 + 5 + 1);
    expect(await answered(home())).toEqual([...FIXED, 'ann@gmial.com', 'bob@hotmial.com', 'cy@yahoo.con'].sort());
    const rows = fixed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.email_fixed)).toEqual([
      'ann@gmail.com',
      null,
      'bob@hotmail.com',
      'cy@yahoo.com',
      null,
      null,
    ]);
  });

  it('replace: the fix in the email cell, the cell as it was in email_original; a partial run resumed pays the rest', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = file('list.csv');
    const out = join(home().dir, 'out.csv');
    const partial = await home().run(['clean', input, '--fix-typos=replace', '-o', out, '--max-spend', '2', ...FAST]);
    expect(partial.code, partial.stderr).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(2);
    // `runs resume` gives the recorded flags again, --fix-typos=replace among them: the same journal, the rest paid.
    const [run] = JSON.parse((await home().run(['runs', '--json', 'id'])).stdout) as Array<{ id: string }>;
    const resumed = await home().run(['runs', 'resume', run!.id]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming run ${run!.id} of list.csv.`);
    expect(resumed.stderr).toMatch(/^Resuming: 2 addresses already checked are not sent again\.$/m);
    expect(sandbox.stats().addressesCharged).toBe(4);
    expect(await answered(home())).toEqual(FIXED);

    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines[0]!.split(',').slice(-1)).toEqual(['email_original']);
    // Rows not fixed go out as they came; a fixed row holds its fix where the address was.
    for (const i of [2, 5, 6]) expect(lines[i]!.startsWith(`${LINES[i]},`), LINES[i]).toBe(true);
    expect(rowsOf(lines.join('\n')).map((r) => [r.email, r.name, r.email_status, r.email_original])).toEqual([
      ['ann@gmail.com', 'Ann typo', 'valid', 'ann@gmial.com'],
      ['ann@gmail.com', 'Ann', 'valid', ''],
      ['bob@hotmail.com', 'Bob', 'valid', 'Bob <bob@hotmial.com>'],
      ['cy@yahoo.com', 'Cy', 'valid', 'cy@yahoo.con'],
      ['di@example.org', 'Di', 'valid', ''],
      ['not-an-address', 'Bad', 'invalid', ''],
    ]);

    const book = join(home().dir, 'out.xlsx');
    const xlsx = await home().run(['clean', input, '--fix-typos=replace', '-o', book, ...FAST]);
    expect(xlsx.code, xlsx.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(4);
    const cells = sheetCells((await workbookParts(book)).get('xl/worksheets/sheet1.xml')!);
    const header = cells[0]!.map((c) => c.value);
    const at = (row: number, name: string) => cells[row]!.find((_, i) => header[i] === name)?.value ?? '';
    expect(header.at(-1)).toBe('email_original');
    expect([at(3, 'email'), at(3, 'email_original'), at(2, 'email_original')]).toEqual([
      'bob@hotmail.com',
      'Bob <bob@hotmial.com>',
      '',
    ]);
  });

  it('the precheck decides a typo for free without the flag; with it, the fix is what is paid for', async () => {
    const dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'gmail.com': { MX: [{ preference: 5, exchange: 'gmail-smtp-in.l.google.com' }] },
      'gmial.com': { MX: [{ preference: 5, exchange: 'mx.gmial.com' }] },
    });
    try {
      const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
      await registered(home(), sandbox);
      const input = file('typo.csv', 'email\nann@gmial.com\n');
      const env = { MAILCLEAN_DNS_SERVERS: dns.server };
      const free = await home().run(['clean', input, '--rate', '1000/1s'], { env });
      expect(free.code, free.stderr).toBe(0);
      expect(rowsOf(free.stdout)[0]).toMatchObject({ email_reason: 'possible_typo', email_checked_by: 'precheck' });
      expect(sandbox.stats().addressesCharged).toBe(0);
      const paid = await home().run(['clean', input, '--fix-typos', '--rate', '1000/1s'], { env });
      expect(paid.code, paid.stderr).toBe(0);
      expect(rowsOf(paid.stdout)[0]).toMatchObject({
        email: 'ann@gmial.com',
        email_status: 'valid',
        email_checked_by: 'service',
        email_provider: 'google',
        email_fixed: 'ann@gmail.com',
      });
      expect(sandbox.stats().addressesCharged).toBe(1);
      expect(await answered(home())).toEqual(['ann@gmail.com']);
    } finally {
      await dns.close();
    }
  });
});

describe('clean --fix-typos with the built-in engine', () => {
  const home = useHome();
  let dns: TestDnsServer;
  beforeAll(async () => {
    const mx = (host: string) => ({ MX: [{ preference: 5, exchange: host }] });
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'gmail.com': mx('mx.gmail.com'),
      'gmial.com': mx('mx.gmial.com'),
      'hotmail.com': mx('mx.hotmail.com'),
      'hotmial.com': mx('mx.hotmial.com'),
      'yahoo.com': mx('mx.yahoo.com'),
      'example.org': mx('mx.example.org'),
    });
  });
  afterAll(() => dns.close());

  it('checks the fix in place of the typo; without the flag the typo is risky with its suggestion', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const local = ['--local', '--dns-server', dns.server];
    const plain = await home().run(['clean', input, ...local]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(rowsOf(plain.stdout)[0]).toMatchObject({
      email_status: 'risky',
      email_reason: 'possible_typo',
      email_suggestion: 'ann@gmail.com',
    });
    const before = dns.queries.length;
    const fixed = await home().run(['clean', input, '--fix-typos', ...local]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stderr).toMatch(/4 unique addresses/);
    expect(rowsOf(fixed.stdout).map((r) => [r.email_status, r.email_suggestion, r.email_fixed])).toEqual([
      ['valid', '', 'ann@gmail.com'],
      ['valid', '', ''],
      ['valid', '', 'bob@hotmail.com'],
      ['valid', '', 'cy@yahoo.com'],
      ['valid', '', ''],
      ['invalid', '', ''],
    ]);
    // The typos' domains were not asked about: their fixes' were.
    const asked = new Set(dns.queries.slice(before).map((q) => q.name));
    expect(['gmail.com', 'hotmail.com', 'yahoo.com'].filter((d) => !asked.has(d))).toEqual([]);
    expect(['gmial.com', 'hotmial.com', 'yahoo.con'].filter((d) => asked.has(d))).toEqual([]);
  });

  it('a value other than column or replace is a usage error naming the flag', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const res = await home().run(['clean', input, '--fix-typos=fix']);
    expectError(res, 2, /^error: option '--fix-typos \[mode\]' argument 'fix' is invalid/);
  });
});
