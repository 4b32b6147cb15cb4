// `clean` orchestrated (src/commands/clean/run.ts): every row read and written back in order, and the choice of
// checker: with nothing configured the built-in engine does the whole job (no account, no allowance); a profile
// holding credentials never falls back to it; engine-only flags need the engine.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openInput } from '../../../src/clean/scan/input/index.js';
import { RESULT_COLUMNS, SERVICE_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { readRecords } from '../../clean/scan/input/helpers.js';
import { expectError, TestHome, useHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const DOMAINS = ['shop.example.com', 'mail.example.org', 'web-only.com', 'nomail.com', 'gmail.com', 'mailinator.com'];

/** A Mailchimp-style export of 3,000 rows: some duplicates, some blank or malformed cells. */
function exportOf(rows: number): string {
  const lines = ['Email Address,First Name,Last Name,TAGS'];
  for (let i = 0; i < rows; i++) {
    const domain = DOMAINS[i % DOMAINS.length]!;
    const email = i % 97 === 0 ? '' : i % 89 === 0 ? `broken${i}@` : `person${i % 2_500}@${domain}`;
    lines.push(`${email},Name${i},"Last, ${i}",newsletter`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe('clean with nothing configured', () => {
  let dns: TestDnsServer;
  let home: TestHome;
  beforeAll(async () => {
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'shop.example.com': { MX: [{ preference: 10, exchange: 'mx.shop.example.com' }] },
      'mail.example.org': { MX: [{ preference: 10, exchange: 'mx.mail.example.org' }] },
      'web-only.com': { A: ['127.0.0.1'] },
      'nomail.com': { MX: [{ preference: 0, exchange: '.' }] },
      'gmail.com': { MX: [{ preference: 5, exchange: 'mx.gmail.com' }] },
      'mailinator.com': { MX: [{ preference: 10, exchange: 'mx.mailinator.com' }] },
    });
    home = new TestHome();
  });
  afterAll(async () => {
    await dns.close();
    home.cleanup();
  });

  it('decides every row of a 3,000-row export with the built-in engine, exit 0, no account created', async () => {
    const input = join(home.dir, 'audience.csv');
    writeFileSync(input, exportOf(3_000));
    const out = join(home.dir, 'cleaned.csv');
    const res = await home.run(['clean', input, '-o', out], { env: { MAILCLEAN_DNS_SERVERS: dns.server } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(
      /^No cleaning service configured: checking with the built-in engine in-process \(nothing spent\)\. To use the service: `mailclean login --api-url URL --clean-url URL`\.$/m,
    );
    expect(res.stderr).not.toMatch(/sandbox/i);

    const rows = parse(readFileSync(out), { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(3_000);
    const statuses = new Map<string, number>();
    for (const row of rows) statuses.set(row.email_status!, (statuses.get(row.email_status!) ?? 0) + 1);
    expect(statuses.get('unchecked')).toBeUndefined();
    expect(statuses.get('unknown')).toBeUndefined();
    expect(rows.find((r) => r['Email Address']!.endsWith('@nomail.com'))).toMatchObject({
      email_status: 'invalid',
      email_reason: 'null_mx',
    });
    expect(rows.find((r) => r['Email Address']!.endsWith('@mailinator.com'))).toMatchObject({
      email_status: 'risky',
      email_disposable: 'true',
    });

    // No account anywhere: no credentials stored, no sandbox state.
    expect(existsSync(join(home.dataDir, 'sandbox'))).toBe(false);
    const config = join(home.configDir, 'config.json');
    if (existsSync(config)) expect(readFileSync(config, 'utf8')).not.toMatch(/token/);
  });

  it('--dry-run works without any service and says the engine checks in-process', async () => {
    const input = join(home.dir, 'small.csv');
    writeFileSync(input, exportOf(200));
    const res = await home.run(['clean', input, '--dry-run', '--json', 'checker,unique,toSend,allowanceNeeded']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ checker: 'local', unique: 195, toSend: 0, allowanceNeeded: 0 });
  });
});

// A profile that holds real credentials never falls back to the built-in sandbox or engine.
describe('clean with credentials but no URL', () => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('fails naming the missing key; no sandbox starts, no account is made, nothing is written', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox, { service: 'all' });
    expect((await home().run(['config', 'unset', 'api-url'])).code).toBe(0);
    expect((await home().run(['config', 'unset', 'clean-url'])).code).toBe(0);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\n');
    const clean = await home().run(['clean', input, '-o', join(home().dir, 'out.csv')]);
    expect(clean.code).toBe(2);
    expect(clean.stderr).toMatch(/no clean-url is configured for profile "default", which holds a cleaning token/);
    expect(existsSync(join(home().dataDir, 'sandbox'))).toBe(false);
    expect(existsSync(join(home().dir, 'out.csv'))).toBe(false);
    expect(readFileSync(join(home().configDir, 'config.json'), 'utf8')).not.toMatch(/"sandbox":\s*\{\s*"default"/);
  });
});

describe('clean: every row, in order, untouched', () => {
  const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'clean');
  const goodFixtures = readdirSync(FIXTURES).filter((f) => /\.(csv|txt|tsv|psv)$/.test(f));
  const sandboxes = useSandboxes();
  const home = useHome();
  beforeEach(async () => {
    await registered(home(), await sandboxes.start({ plan: 'unlimited' }));
  });

  it.each(goodFixtures)('%s keeps every row byte for byte, in input order, once', async (name) => {
    const input = join(FIXTURES, name);
    const out = join(home().dir, `${name}.out.csv`);
    const res = await home().run(['clean', input, '-o', out, '--resume']);
    expect(res.code, res.stderr).toBe(0);

    const layout = await openInput({ path: input, stdin: process.stdin, spoolDir: home().dir });
    const delimiter = layout.format === 'lines' ? ',' : layout.delimiter;
    const outText = readFileSync(out, 'utf8');
    const eol = layout.lineEnding;
    // A BOM when the input had one or was not UTF-8 (for Excel).
    const bom = layout.bom || layout.encoding !== 'utf-8';
    const expectedStart =
      layout.format === 'lines'
        ? `email${delimiter}email_status`
        : layout.hasHeader
          ? `${bom ? '\uFEFF' : ''}${layout.headerRaw}${delimiter}email_status`
          : '';
    expect(outText.startsWith(expectedStart)).toBe(true);

    // Each output record is the input record's exact text, then the delimiter and the result cells: the verdict's
    // six, email_free and email_role (empty only without an address), email_provider, then the service's columns
    // (empty for rows decided from the cell, never sent).
    let position = expectedStart ? outText.indexOf(eol) + eol.length : bom ? 1 : 0;
    let rows = 0;
    for await (const record of readRecords(layout)) {
      const original =
        layout.format === 'lines' && /[",\r\n]/.test(record.raw) ? `"${record.raw.replace(/"/g, '""')}"` : record.raw;
      expect(outText.slice(position, position + original.length)).toBe(original);
      position += original.length;
      expect(outText[position]).toBe(delimiter);
      const end = outText.indexOf(eol, position);
      const cells = outText.slice(position + 1, end).split(delimiter);
      expect(cells).toHaveLength(RESULT_COLUMNS.length + 1 + SERVICE_COLUMNS.length);
      expect(['valid', 'invalid', 'risky', 'unknown']).toContain(cells[0]);
      const decidedHere = cells[4] === 'syntax' || cells[4] === 'blank' || cells[4] === 'short_row';
      expect([cells[6], cells[7]]).toEqual(
        decidedHere ? ['', ''] : [expect.stringMatching(/^(true|false)$/), expect.stringMatching(/^(true|false)$/)],
      );
      // email_provider, then email_service_status and email_checked_by: no provider, the service's word and
      // "service" (the fixtures' domains are not prechecked here: DNS does not answer in tests unless one is started).
      expect(cells.slice(8)).toEqual(decidedHere ? ['', '', ''] : ['', expect.stringMatching(/./), 'service']);
      position = end + eol.length;
      rows++;
    }
    expect(position).toBe(outText.length);
    expect(rows).toBeGreaterThan(0);
    await layout.cleanup();
  });
});

describe('clean: flags of the built-in engine', () => {
  const home = useHome();

  it('--smtp and --dns-server need the built-in engine when a cleaning service is configured', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\n');
    for (const flags of [['--smtp'], ['--smtp-port', '2525'], ['--smtp-from', 'probe@example.com']]) {
      const res = await home().run(['--clean-url', 'http://127.0.0.1:9', 'clean', input, ...flags]);
      expectError(res, 2, `error: ${flags[0]} works with the built-in engine only (--local)`);
    }
  });

  it('--smtp-port and --smtp-from without --smtp are refused, not dropped', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\n');
    for (const flags of [
      ['--smtp-port', '2525'],
      ['--smtp-from', 'probe@example.com'],
    ]) {
      const res = await home().run(['clean', input, '--local', ...flags]);
      expectError(res, 2, `error: ${flags[0]} goes with --smtp`);
    }
  });
});
