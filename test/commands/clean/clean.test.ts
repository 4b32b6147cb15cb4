// `mailclean clean`'s flags and usage errors (src/commands/clean/clean.ts): its help, which explains every status
// and reason, and input or flags it refuses with exit 2 before anything is sent.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REASON_MEANINGS, STATUS_MEANINGS } from '../../../src/clean/verdict/verdict.js';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { ENGINE_REASONS } from '../../../src/verify/engine.js';
import { expectError, TestHome, useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'clean');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('clean --help', () => {
  let home: TestHome;
  let help: string;
  beforeAll(async () => {
    home = new TestHome();
    const res = await home.run(['clean', '--help']);
    expect(res.code).toBe(0);
    help = res.stdout;
  });
  afterAll(() => home.cleanup());

  it('shows its flags', () => {
    for (const flag of [
      '--output',
      '--format',
      '--column',
      '--only',
      '--rejects',
      '--rate',
      '--concurrency',
      '--max-spend',
      '--dry-run',
      '--resume',
      '--restart',
      '--local',
      '--yes',
      '--strict',
    ]) {
      expect(help).toContain(flag);
    }
  });

  it('explains the cells it looks into, email_checked, and what becomes of ragged rows', () => {
    expect(help).toContain('"Ada <ada@example.com>", mailto:ada@example.com?subject=Hi');
    expect(help).toMatch(/column, email_checked, names the address checked/);
    expect(help).toMatch(/A row with more or fewer fields than the header is kept/);
    expect(help).toMatch(/its extra fields after the results/);
    expect(help).toMatch(/--strict refuses such a file \(exit 2\)/);
    expect(help).toMatch(/A one-column list keeps its header text/);
  });

  it('explains formula injection: OWASP, what is always escaped, the option and its defaults', () => {
    expect(help).toMatch(/Formula injection \(OWASP "CSV injection"\)/);
    expect(help).toMatch(/put ' before such a cell and quote it/);
    expect(help).toMatch(
      /the list's own cells with --escape-formulas, which is on by\s+default when a workbook is written as CSV/,
    );
    expect(help).toContain('--no-escape-formulas');
  });

  it('explains every reason the engine can give', () => {
    const reasons = ENGINE_REASONS.filter((r) => r !== '');
    expect(reasons.length).toBeGreaterThan(10);
    const block = help.slice(help.indexOf('Reasons (email_reason'), help.indexOf('Exit codes:'));
    for (const reason of reasons) expect(block, reason).toMatch(new RegExp(`^  ${reason} +\\S`, 'm'));
  });

  it('lists every status and reason with the same meaning as docs/json.md', () => {
    const doc = readFileSync(new URL('../../../docs/json.md', import.meta.url), 'utf8');
    for (const [name, meaning] of [...Object.entries(STATUS_MEANINGS), ...Object.entries(REASON_MEANINGS)]) {
      expect(help, name).toMatch(new RegExp(`^  ${name} +${escapeRegExp(meaning)}$`, 'm'));
      expect(doc, name).toContain(`| \`${name}\` | ${meaning} |`);
    }
    for (const reason of ['blank', 'syntax', 'rejected_by_service', 'no_result', 'invalid_domain', 'rejected']) {
      expect(Object.keys(REASON_MEANINGS), reason).toContain(reason);
    }
  });
});

describe('clean: bad input', () => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeEach(async () => {
    home = new TestHome();
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home, sandbox);
  });
  afterEach(() => home.cleanup());

  const BAD = join(FIXTURES, 'bad');
  const cases: Array<[string, string | (() => string), RegExp]> = [
    ['empty file', join(BAD, 'empty.csv'), /empty\.csv:1: the file is empty/],
    ['a header with no rows', join(BAD, 'header-only.csv'), /header-only\.csv:1: the file has a header but no rows/],
    [
      'no email column',
      join(BAD, 'no-email-column.csv'),
      /no-email-column\.csv:1: no email column found \(columns: .+\)/,
    ],
    ['ragged rows, with --strict', join(BAD, 'ragged.csv'), /ragged\.csv:17: 3 fields where the header has 5/],
    [
      'invalid UTF-8 after a UTF-8 BOM',
      () => {
        const path = join(home.dir, 'bom-latin1.csv');
        writeFileSync(
          path,
          Buffer.concat([Buffer.from('\ufeffemail,name\na@example.com,Jos'), Buffer.from([0xe9, 0x0a])]),
        );
        return path;
      },
      /bom-latin1\.csv:2: not valid UTF-8 \(byte 0xe9\)/,
    ],
    ['a binary file', join(BAD, 'binary.bin'), /binary\.bin:1: this looks like a binary file/],
    [
      'a 10 MB field',
      () => {
        const path = join(home.dir, 'huge.csv');
        writeFileSync(path, `email,notes\na@example.com,ok\nb@example.com,"${'x'.repeat(10 * 2 ** 20)}"\n`);
        return path;
      },
      /huge\.csv:3: a record longer than 1 MiB/,
    ],
  ];

  it.each(cases)('%s: exit 2 naming the file and line, nothing written', async (name, file, pattern) => {
    const input = typeof file === 'function' ? file() : file;
    const out = join(home.dir, 'never.csv');
    const res = await home.run(['clean', input, '-o', out, ...(name.includes('--strict') ? ['--strict'] : [])]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(pattern);
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(home.dir).filter((f) => f.includes('never'))).toEqual([]);
  });

  it('an output directory that does not exist: exit 2 before anything is sent', async () => {
    const good = readdirSync(FIXTURES).filter((f) => /\.(csv|txt|tsv|psv)$/.test(f));
    const before = sandbox.stats().cleanRequests;
    const res = await home.run(['clean', join(FIXTURES, good[0]!), '-o', join(home.dir, 'no', 'such', 'dir', 'x.csv')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--output: cannot write/);
    expect(sandbox.stats().cleanRequests).toBe(before);
  });
});

describe.each(['spec', 'alt'] as const)('clean: flags it refuses (sandbox shape %s)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('an unknown status for --only is a usage error listing them; --json without --dry-run too', async () => {
    await registered(home(), await sandboxes.start({ shape, plan: 'unlimited' }));
    const input = join(home().dir, 'mixed.csv');
    writeFileSync(input, 'email\nann@example.com\nbob@example.com\nbad@@x\n,\nx@mailinator.com\n');
    const keep = join(home().dir, 'keep.csv');
    const typo = await home().run(['clean', input, '--only', 'valid,riskyy', '-o', keep]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^error: --only: "riskyy" is not a status, a reason or provider=NAME\nhint: statuses: valid, risky, invalid, unknown, unchecked; reasons: see clean --help\n$/,
    );
    const provider = await home().run(['clean', input, '--only', 'valid,provider=gmail', '-o', keep]);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(
      /^error: --only: "provider=gmail" names no provider\nhint: providers: google, microsoft, /,
    );

    const json = await home().run(['clean', input, '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/--json goes with --dry-run/);
  });

  it('--rejects named for another format than the rows: exit 2 before anything is sent', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'mixed.csv');
    writeFileSync(input, 'email\nann@example.com\nbad@@x\n');
    const [keep, drop] = [join(home().dir, 'keep.csv'), join(home().dir, 'drop.xlsx')];
    const res = await home().run(['clean', input, '--only', 'valid', '-o', keep, '--rejects', drop]);
    expectError(res, 2, `error: --rejects: ${drop} names xlsx, but the rows are written as csv`);
    expect(res.stderr).toMatch(/^hint: name it \.csv, or choose the rows' format with --format$/m);
    expect(existsSync(keep) || existsSync(drop)).toBe(false);
    expect(sandbox.stats().cleanRequests).toBe(0);
    const both = await home().run([
      'clean',
      input,
      '--only',
      'valid',
      '-o',
      keep,
      '--rejects',
      join(home().dir, 'drop.txt'),
    ]);
    expect(both.code, both.stderr).toBe(0);
  });
});
