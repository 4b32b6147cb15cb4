// `mailclean clean` in-process against the sandbox over real HTTP on 127.0.0.1.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/server.js';
import { openInput, readRecords } from '../../src/clean/input/index.js';
import { TestHome } from '../helpers/cli.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'clean');
const goodFixtures = readdirSync(FIXTURES).filter((f) => /\.(csv|txt|tsv|psv)$/.test(f));

interface Env {
  sandbox: SandboxHandle;
  home: TestHome;
  run(args: string[], stdin?: string): ReturnType<TestHome['run']>;
}

async function setup(options: SandboxOptions = {}): Promise<Env> {
  const sandbox = await startSandbox({ port: 0, plan: 'unlimited', ...options });
  const home = new TestHome();
  const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  const run = (args: string[], stdin?: string) => home.run([...urls, ...args], { stdin });
  const reg = await run(['register', '--service', 'clean', '--name', 'T', '--email', 'clean@example.com', '--password-stdin'], 'a long password');
  expect(reg.code, reg.stderr).toBe(0);
  return { sandbox, home, run };
}

async function teardown(env: Env | undefined): Promise<void> {
  if (!env) return;
  await env.sandbox.close();
  env.home.cleanup();
}

function addresses(n: number, prefix = 'person'): string {
  const lines = ['email,name'];
  for (let i = 0; i < n; i++) lines.push(`${prefix}${i}@example${i % 7}.com,Name ${i}`);
  return `${lines.join('\n')}\n`;
}

/** Splits a CSV output row into the original record's text and the six appended cells. */
async function outputRows(path: string, delimiter: string): Promise<string[][]> {
  return parse(readFileSync(path), { delimiter, bom: true, relax_column_count: true }) as string[][];
}

describe('clean: every row, in order, untouched', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => teardown(env));

  it.each(goodFixtures)('%s keeps every row byte for byte, in input order, once', async (name) => {
    const input = join(FIXTURES, name);
    const out = join(env.home.dir, `${name}.out.csv`);
    const res = await env.run(['clean', input, '-o', out, '--resume']);
    expect(res.code, res.stderr).toBe(0);

    const layout = await openInput({ path: input, stdin: process.stdin, spoolDir: env.home.dir });
    const delimiter = layout.format === 'lines' ? ',' : layout.delimiter;
    const outText = readFileSync(out, 'utf8');
    const eol = layout.lineEnding;
    const expectedStart = layout.format === 'lines' ? `email${delimiter}email_status` : layout.hasHeader ? `${layout.bom ? '\uFEFF' : ''}${layout.headerRaw}${delimiter}email_status` : '';
    expect(outText.startsWith(expectedStart)).toBe(true);

    // Each output record is the input record's exact text, then the delimiter and six result cells.
    let position = expectedStart ? outText.indexOf(eol) + eol.length : layout.bom ? 1 : 0;
    let rows = 0;
    for await (const record of readRecords(layout)) {
      const original = layout.format === 'lines' && /[",\r\n]/.test(record.raw) ? `"${record.raw.replace(/"/g, '""')}"` : record.raw;
      expect(outText.slice(position, position + original.length)).toBe(original);
      position += original.length;
      expect(outText[position]).toBe(delimiter);
      const end = outText.indexOf(eol, position);
      const cells = outText.slice(position + 1, end).split(delimiter);
      expect(cells).toHaveLength(6);
      expect(['valid', 'invalid', 'risky', 'unknown']).toContain(cells[0]);
      position = end + eol.length;
      rows++;
    }
    expect(position).toBe(outText.length);
    expect(rows).toBeGreaterThan(0);
    await layout.cleanup();
  });
});

describe('clean: spending', () => {
  let env: Env | undefined;
  afterEach(async () => {
    await teardown(env);
    env = undefined;
  });

  it('spends only unique, well-formed addresses, and nothing on a resumed finished run', async () => {
    env = await setup();
    const input = join(env.home.dir, 'list.csv');
    const rows = [
      'email,name',
      'ann@example.com,Ann',
      'ANN@EXAMPLE.COM,Ann upper local part is another mailbox',
      'ann@Example.COM,Ann again',
      ' ann@example.com ,Ann with spaces',
      ',blank',
      'not-an-address,bad',
      'bob@,bad',
      'bob@example.org,Bob',
      'carol@mailinator.com,Carol',
    ];
    writeFileSync(input, `${rows.join('\n')}\n`);
    const out = join(env.home.dir, 'out.json');
    const first = await env.run(['clean', input, '-o', out, '--format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(env.sandbox.stats().addressesCharged).toBe(4);
    const results = JSON.parse(readFileSync(out, 'utf8')) as Array<Record<string, unknown>>;
    expect(results).toHaveLength(9);
    expect(results.map((r) => r.email_status)).toEqual(['valid', 'valid', 'valid', 'valid', 'invalid', 'invalid', 'invalid', 'valid', 'risky']);
    expect(results[4]!.email_reason).toBe('blank');
    expect(results[5]!.email_reason).toBe('syntax');
    expect(results[8]).toMatchObject({ email_disposable: true, name: 'Carol' });

    const again = await env.run(['clean', input, '-o', out, '--format', 'json', '--resume']);
    expect(again.code).toBe(0);
    expect(env.sandbox.stats().addressesCharged).toBe(4);
    expect(env.sandbox.stats().cleanRequests).toBe(1);

    // A plain rerun of a finished list (a scheduled job) reuses the answers: outputs again, nothing paid.
    writeFileSync(out, '');
    const rerun = await env.run(['clean', input, '-o', out, '--format', 'json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/All 4 addresses were answered by an earlier run of this list: nothing is sent/);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(results);
    expect(env.sandbox.stats().addressesCharged).toBe(4);

    const restart = await env.run(['clean', input, '-o', out, '--format', 'json', '--restart']);
    expect(restart.code, restart.stderr).toBe(0);
    expect(env.sandbox.stats().addressesCharged).toBe(8);
  });

  it('an unfinished earlier run is not silently resumed or paid again without a terminal', async () => {
    env = await setup({ plan: 'free' });
    const input = join(env.home.dir, 'list.csv');
    writeFileSync(input, addresses(60));
    const first = await env.run(['clean', input, '-o', join(env.home.dir, 'out.csv')]);
    expect(first.code, first.stderr).toBe(3);
    const again = await env.run(['clean', input, '-o', join(env.home.dir, 'out.csv')]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/saved 50 answers and has 10 addresses left to check/);
    expect(again.stderr).toMatch(/--resume .*--restart/);
    expect(env.sandbox.stats().addressesCharged).toBe(50);
  });

  it('derives a reason from the service record only where its flags justify one', async () => {
    env = await setup();
    const input = join(env.home.dir, 'reasons.csv');
    // The sandbox answers like the service: a status and flags, no reason.
    writeFileSync(input, 'email\ninfo@example.org\ncarol@mailinator.com\ndan@example.test\nann@example.org\n');
    const res = await env.run(['clean', input, '--format', 'ndjson']);
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((r) => [r.email, r.email_status, r.email_reason])).toEqual([
      ['info@example.org', 'risky', null], // a role account: valid false, no flag says why, so no reason is claimed
      ['carol@mailinator.com', 'risky', 'disposable'],
      ['dan@example.test', 'invalid', 'invalid_domain'],
      ['ann@example.org', 'valid', null],
    ]);
  });

  it('--dry-run reports what a run would spend and sends nothing', async () => {
    env = await setup();
    const input = join(env.home.dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const res = await env.run(['clean', input, '--dry-run', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ rows: 120, unique: 120, toSend: 120, requests: 3, allowanceNeeded: 120 });
    expect(env.sandbox.stats().cleanRequests).toBe(0);
  });

  it('--max-spend stops at the cap: exit 3, the rest unchecked', async () => {
    env = await setup();
    const input = join(env.home.dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const out = join(env.home.dir, 'out.csv');
    const res = await env.run(['clean', input, '-o', out, '--max-spend', '70']);
    expect(res.code, res.stderr).toBe(3);
    expect(env.sandbox.stats().addressesCharged).toBe(70);
    const statuses = (await outputRows(out, ',')).slice(1).map((r) => r[2]);
    expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(50);
  });
});

describe('clean: allowance', () => {
  let env: Env | undefined;
  afterEach(async () => {
    await teardown(env);
    env = undefined;
  });

  it('free plan, 120 unique: exit 3 with 50 checked and 70 unchecked; after the month turns --resume finishes', async () => {
    let now = Date.UTC(2026, 10, 20, 12);
    env = await setup({ plan: 'free', now: () => now, tokenTtlMs: 365 * 86_400_000 });
    const input = join(env.home.dir, 'list.csv');
    writeFileSync(input, addresses(120));
    const out = join(env.home.dir, 'out.csv');
    const first = await env.run(['clean', input, '-o', out]);
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/70 rows unchecked: the monthly allowance is used up \(0 left; renews 2026-12-01\)\.\n/);
    expect(first.stderr).toMatch(/a larger plan raises the monthly allowance; --local checks the rest now/);
    expect(first.stderr).toMatch(/--resume/);
    let statuses = (await outputRows(out, ',')).slice(1).map((r) => r[2]);
    expect(statuses.filter((s) => s === 'valid')).toHaveLength(50);
    expect(statuses.filter((s) => s === 'unchecked')).toHaveLength(70);
    expect(env.sandbox.stats().addressesCharged).toBe(50);

    now = Date.UTC(2026, 11, 1, 0, 1);
    const second = await env.run(['clean', input, '-o', out, '--resume']);
    expect(second.code, second.stderr).toBe(3);
    expect(env.sandbox.stats().addressesCharged).toBe(100);
    now = Date.UTC(2027, 0, 1, 0, 1);
    const third = await env.run(['clean', input, '-o', out, '--resume']);
    expect(third.code, third.stderr).toBe(0);
    expect(env.sandbox.stats().addressesCharged).toBe(120);
    statuses = (await outputRows(out, ',')).slice(1).map((r) => r[2]);
    expect(statuses.every((s) => s === 'valid')).toBe(true);
  });
});

describe('clean: faults', () => {
  let env: Env | undefined;
  afterEach(async () => {
    await teardown(env);
    env = undefined;
  });

  it('with 5xx, resets and truncated bodies injected, every row is decided as in a fault-free run', async () => {
    const list = addresses(400) + 'x@mailinator.com,disposable\nbad@@x,bad\n';
    const decided = async (options: SandboxOptions) => {
      env = await setup(options);
      const input = join(env.home.dir, 'list.csv');
      writeFileSync(input, list);
      const out = join(env.home.dir, 'out.csv');
      const res = await env.run(['clean', input, '-o', out, '--concurrency', '4']);
      expect(res.code, res.stderr).toBe(0);
      const rows = (await outputRows(out, ',')).map((r) => r.slice(0, -1)); // all but email_checked_at
      const stats = env.sandbox.stats();
      await teardown(env);
      env = undefined;
      return { rows, stats };
    };
    const clean = await decided({});
    const faulty = await decided({ faults: { serverErrorRate: 0.1, resetRate: 0.05, truncateRate: 0.05, seed: 42 } });
    expect(faulty.rows).toEqual(clean.rows);
    expect(faulty.stats.faults.serverError + faulty.stats.faults.reset + faulty.stats.faults.truncated).toBeGreaterThan(0);
  });
});

describe('clean: bad input', () => {
  let env: Env;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => teardown(env));

  const BAD = join(FIXTURES, 'bad');
  const cases: Array<[string, string | (() => string), RegExp]> = [
    ['empty file', join(BAD, 'empty.csv'), /empty\.csv:1: the file is empty/],
    ['a header with no rows', join(BAD, 'header-only.csv'), /header-only\.csv:1: the file has a header but no rows/],
    ['no email column', join(BAD, 'no-email-column.csv'), /no-email-column\.csv:1: no email column found \(columns: .+\)/],
    ['ragged rows', join(BAD, 'ragged.csv'), /ragged\.csv:\d+: \d+ fields where the header has \d+/],
    [
      'invalid UTF-8 after a UTF-8 BOM',
      () => {
        const path = join(env.home.dir, 'bom-latin1.csv');
        writeFileSync(path, Buffer.concat([Buffer.from('\ufeffemail,name\na@example.com,Jos'), Buffer.from([0xe9, 0x0a])]));
        return path;
      },
      /bom-latin1\.csv:2: not valid UTF-8 \(byte 0xe9\)/,
    ],
    ['a binary file', join(BAD, 'binary.bin'), /binary\.bin:1: this looks like a binary file/],
    [
      'a 10 MB field',
      () => {
        const path = join(env.home.dir, 'huge.csv');
        writeFileSync(path, `email,notes\na@example.com,ok\nb@example.com,"${'x'.repeat(10 * 2 ** 20)}"\n`);
        return path;
      },
      /huge\.csv:3: a record longer than 1 MiB/,
    ],
  ];

  it.each(cases)('%s: exit 2 naming the file and line, nothing written', async (_name, file, pattern) => {
    const input = typeof file === 'function' ? file() : file;
    const out = join(env.home.dir, 'never.csv');
    const res = await env.run(['clean', input, '-o', out]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(pattern);
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(env.home.dir).filter((f) => f.includes('never'))).toEqual([]);
  });

  it('an output directory that does not exist: exit 2 before anything is sent', async () => {
    const before = env.sandbox.stats().cleanRequests;
    const res = await env.run(['clean', join(FIXTURES, goodFixtures[0]!), '-o', join(env.home.dir, 'no', 'such', 'dir', 'x.csv')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--output: cannot write/);
    expect(env.sandbox.stats().cleanRequests).toBe(before);
  });
});
