// email_free and email_role: what the address is, whoever checked it. The service (both answer shapes, fresh and
// from the cache) and the built-in engine give the same flags, in CSV and JSON, and `verify` says the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const LIST = [
  'email,name',
  'ada@gmail.com,Ada',
  'info@acme.example.com,Info',
  'No-Reply+x@yahoo.com,Bot',
  'bob@acme.example.com,Bob',
  'not an address,Broken',
  ',Blank',
  '',
].join('\n');

/** email -> [email_free, email_role] as written. */
const EXPECTED: Record<string, [string, string]> = {
  'ada@gmail.com': ['true', 'false'],
  'info@acme.example.com': ['false', 'true'],
  'No-Reply+x@yahoo.com': ['true', 'true'],
  'bob@acme.example.com': ['false', 'false'],
  'not an address': ['', ''],
  '': ['', ''],
};

function flagsOf(csv: string): Record<string, [string, string]> {
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  return Object.fromEntries(rows.map((r) => [r.email!, [r.email_free!, r.email_role!]]));
}

const asJson = (flags: [string, string]) => flags.map((f) => (f === '' ? null : f === 'true'));

describe.each(['spec', 'alt'] as const)('email_free and email_role with the service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('are written for every row with an address, fresh and from the cache, in CSV and JSON', async () => {
    await registered(home(), await sandboxes.start({ shape, plan: 'unlimited' }));
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const out = join(home().dir, 'out.csv');
    const fresh = await home().run(['clean', input, '-o', out]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(flagsOf(readFileSync(out, 'utf8'))).toEqual(EXPECTED);
    // The same list again, answered from its journal (answers alike share one verdict): the same flags and counts.
    const summary = join(home().dir, 'summary.json');
    const rerun = await home().run(['clean', input, '-o', join(home().dir, 'rerun.csv'), '--summary-json', summary]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(readFileSync(join(home().dir, 'rerun.csv'), 'utf8')).toBe(readFileSync(out, 'utf8'));
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ role: 2 });

    // The same addresses again, answered from the cache (whose verdicts carry no key), as JSON.
    const again = join(home().dir, 'again.csv');
    writeFileSync(again, LIST.replace('Ada', 'Ada L.'));
    const json = await home().run(['clean', again, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toMatch(/come from the cache/);
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(Object.fromEntries(rows.map((r) => [r.email, [r.email_free, r.email_role]]))).toEqual(
      Object.fromEntries(Object.entries(EXPECTED).map(([k, v]) => [k, asJson(v)])),
    );

    // info@ is a role address, so risky: exit 5 for scripts.
    const verify = await home().run(['verify', 'ada@gmail.com', 'info@acme.example.com', '--json']);
    expect(verify.code, verify.stderr).toBe(5);
    expect(
      (JSON.parse(verify.stdout) as Array<Record<string, unknown>>).map((r) => [r.address, r.free, r.role]),
    ).toEqual([
      ['ada@gmail.com', true, false],
      ['info@acme.example.com', false, true],
    ]);
  });
});

describe('email_free and email_role with the built-in engine', () => {
  const home = useHome();
  let dns: TestDnsServer;
  beforeAll(async () => {
    const mx = (name: string) => ({ MX: [{ preference: 10, exchange: `mx.${name}` }] });
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'gmail.com': mx('gmail.com'),
      'yahoo.com': mx('yahoo.com'),
      'acme.example.com': mx('acme.example.com'),
    });
  });
  afterAll(() => dns.close());

  it('are the same as the service’s, in CSV and from `verify --local`', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const res = await home().run(['clean', input, '--local', '--dns-server', dns.server]);
    expect(res.code, res.stderr).toBe(0);
    expect(flagsOf(res.stdout)).toEqual(EXPECTED);
    const verify = await home().run([
      'verify',
      '--local',
      '--dns-server',
      dns.server,
      'No-Reply+x@yahoo.com',
      'not an address',
      '--json',
    ]);
    expect(
      (JSON.parse(verify.stdout) as Array<Record<string, unknown>>).map((r) => [r.address, r.free, r.role]),
    ).toEqual([
      ['No-Reply+x@yahoo.com', true, true],
      ['not an address', null, null],
    ]);
  });
});
