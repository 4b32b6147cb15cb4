// email_provider: the mail provider behind each address's domain, from its MX hosts, looked up once per domain by
// the built-in engine (--local) or the precheck (with the service), and the same on every row of a domain whichever
// step answered it (a fresh answer, the list's journal, the cache). Against a DNS server on loopback and the
// sandbox over HTTP (both answer shapes); in CSV, JSON, the summary, the report, `--only provider=…` and `verify`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer, type ZoneEntry } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const mx = (...hosts: Array<[string, number]>): ZoneEntry => ({
  MX: hosts.map(([exchange, preference]) => ({ exchange, preference })),
});

const ZONES: Record<string, ZoneEntry> = {
  // Google Workspace and Microsoft 365 on custom domains, and the providers' own free-mail domains.
  'workspace.example.com': mx(['aspmx.l.google.com', 1], ['alt1.aspmx.l.google.com', 5]),
  'contoso.example.com': mx(['contoso-example-com.mail.protection.outlook.com', 0]),
  'gmail.com': mx(['gmail-smtp-in.l.google.com', 5], ['alt1.gmail-smtp-in.l.google.com', 10]),
  'outlook.com': mx(['outlook-com.olc.protection.outlook.com', 5]),
  // A gateway in front of Google: the gateway receives the mail.
  'filtered.example.com': mx(['eu-smtp-inbound-1.mimecast.com', 10], ['aspmx.l.google.com', 20]),
  'own.example.com': mx(['mx.own.example.com', 10]),
  // No MX: the domain is its own mail host.
  'nomx.example.com': { A: ['192.0.2.1'] },
};

const LIST = [
  'email,name',
  'ada@workspace.example.com,Workspace',
  'bob@contoso.example.com,Microsoft 365',
  'cy@gmail.com,Gmail',
  'di@outlook.com,Outlook',
  'ed@filtered.example.com,Mimecast',
  'fay@own.example.com,Own server',
  'gus@nomx.example.com,No MX',
  'hal@dead.example.com,No such domain',
  'ivy@site.test,Reserved',
  'jo@WORKSPACE.example.com,Workspace again',
  'not an address,Broken',
  ',Blank',
  '',
].join('\n');

/** email -> email_provider, as written to CSV. */
const PROVIDERS: Record<string, string> = {
  'ada@workspace.example.com': 'google',
  'bob@contoso.example.com': 'microsoft',
  'cy@gmail.com': 'google',
  'di@outlook.com': 'microsoft',
  'ed@filtered.example.com': 'mimecast',
  'fay@own.example.com': 'other',
  'gus@nomx.example.com': 'other',
  'hal@dead.example.com': '',
  'ivy@site.test': '',
  'jo@WORKSPACE.example.com': 'google',
  'not an address': '',
  '': '',
};

/** The summary's rows by provider for LIST. */
const BY_PROVIDER = { google: 3, microsoft: 2, other: 2, mimecast: 1 };

function providersOf(csv: string): Record<string, string> {
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  return Object.fromEntries(rows.map((r) => [r.email!, r.email_provider!]));
}

function jsonProviders(json: string): Record<string, unknown> {
  const rows = JSON.parse(json) as Array<Record<string, unknown>>;
  return Object.fromEntries(rows.map((r) => [r.email, r.email_provider]));
}

const asJson = Object.fromEntries(Object.entries(PROVIDERS).map(([email, p]) => [email, p === '' ? null : p]));

/** MX questions per name: each domain is asked once, whichever checks want it. */
function mxAsked(dns: TestDnsServer): Record<string, number> {
  const asked: Record<string, number> = {};
  for (const q of dns.queries) if (q.type === 'MX') asked[q.name] = (asked[q.name] ?? 0) + 1;
  return asked;
}

describe('email_provider with the built-in engine', () => {
  const home = useHome();
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer(ZONES);
  });
  afterAll(() => dns.close());

  it('names each domain’s provider in CSV and JSON, counts rows by provider, and --only keeps a provider’s rows', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const summary = join(home().dir, 'summary.json');
    const report = join(home().dir, 'report.html');
    const dnsServer = ['--dns-server', dns.server];
    const csv = await home().run([
      'clean',
      input,
      '--local',
      ...dnsServer,
      '--summary-json',
      summary,
      '--report',
      report,
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toMatch(/,email_suggestion,email_provider$/);
    expect(providersOf(csv.stdout)).toEqual(PROVIDERS);
    expect(JSON.parse(readFileSync(summary, 'utf8')).providers).toEqual(BY_PROVIDER);
    expect(csv.stderr).toMatch(/Rows by mail provider: google 3, microsoft 2, other 2, mimecast 1\./);
    expect(readFileSync(report, 'utf8')).toMatch(/<g class="bar" data-name="google" data-rows="3">/);
    // One MX question a domain (the two spellings of workspace.example.com are one key's domain), none for .test.
    const asked = mxAsked(dns);
    expect(Object.values(asked).every((n) => n === 1)).toBe(true);
    expect(Object.keys(asked).sort()).toEqual([...Object.keys(ZONES), 'dead.example.com'].sort());

    const json = await home().run(['clean', input, '--local', ...dnsServer, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(jsonProviders(json.stdout)).toEqual(asJson);

    const only = await home().run(['clean', input, '--local', ...dnsServer, '--only', 'valid,provider=google']);
    expect(only.code, only.stderr).toBe(0);
    expect(Object.keys(providersOf(only.stdout))).toEqual([
      'ada@workspace.example.com',
      'cy@gmail.com',
      'jo@WORKSPACE.example.com',
    ]);

    const verify = await home().run([
      'verify',
      '--local',
      ...dnsServer,
      'x@contoso.example.com',
      'y@site.test',
      '--json',
    ]);
    expect((JSON.parse(verify.stdout) as Array<Record<string, unknown>>).map((r) => r.provider)).toEqual([
      'microsoft',
      null,
    ]);
  });

  it('is empty when DNS does not answer, and a dry run looks nothing up for it', async () => {
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    // The tests' default resolver refuses every question.
    const res = await home().run(['clean', input, '--local']);
    expect(res.code, res.stderr).toBe(0);
    expect(new Set(Object.values(providersOf(res.stdout)))).toEqual(new Set(['']));
    const asked = dns.queries.length;
    const dry = await home().run(['clean', input, '--local', '--dns-server', dns.server, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dns.queries.length).toBe(asked);
  });
});

describe.each(['spec', 'alt'] as const)('email_provider with the service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer(ZONES);
  });
  afterAll(() => dns.close());

  it('comes from the precheck’s lookups, the same whether the row was sent, prechecked, journaled or cached', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const out = join(home().dir, 'out.csv');
    const summary = join(home().dir, 'summary.json');
    const fresh = await home().run(['clean', input, '-o', out, '--summary-json', summary], { env });
    expect(fresh.code, fresh.stderr).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written.split('\n')[0]).toMatch(/,email_role,email_provider,email_service_status,email_checked_by$/);
    expect(providersOf(written)).toEqual(PROVIDERS);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ providers: BY_PROVIDER, answered: { sent: 8 } });
    // A domain once (but the one that does not exist: the precheck believes that only when said twice).
    expect(mxAsked(dns)).toEqual({
      ...Object.fromEntries(Object.keys(ZONES).map((name) => [name, 1])),
      'dead.example.com': 2,
    });

    // The same list again: the paid addresses from its journal (the two prechecked ones prechecked again, not
    // journaled), their domains looked up for their providers alone.
    const rerun = await home().run(['clean', input, '-o', join(home().dir, 'rerun.csv')], { env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(providersOf(readFileSync(join(home().dir, 'rerun.csv'), 'utf8'))).toEqual(PROVIDERS);
    expect(sandbox.stats().addressesCharged).toBe(8);

    // A list the cache answers whole: nothing is prechecked, and still every domain is looked up.
    const paid = join(home().dir, 'paid.csv');
    writeFileSync(paid, 'email\nada@workspace.example.com\nbob@contoso.example.com\ned@filtered.example.com\n');
    const whole = await home().run(['clean', paid], { env });
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stderr).not.toMatch(/[Pp]recheck/);
    expect(Object.values(providersOf(whole.stdout))).toEqual(['google', 'microsoft', 'mimecast']);

    // The same addresses in another list: the paid ones from the cache, as JSON.
    const other = join(home().dir, 'other.csv');
    writeFileSync(other, LIST.replace('jo@WORKSPACE.example.com,Workspace again\n', ''));
    const cached = await home().run(['clean', other, '--format', 'json'], { env });
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stderr).toMatch(/come from the cache/);
    const { 'jo@WORKSPACE.example.com': _jo, ...others } = asJson;
    expect(jsonProviders(cached.stdout)).toEqual(others);
    expect(sandbox.stats().addressesCharged).toBe(8);

    // --local, signed in: the service's answers kept (this list's journal), their domains looked up by the engine.
    const local = await home().run(['clean', input, '--local', '--dns-server', dns.server]);
    expect(local.code, local.stderr).toBe(0);
    expect(providersOf(local.stdout)).toEqual(PROVIDERS);

    const only = await home().run(['clean', other, '--only', 'provider=microsoft,provider=mimecast'], { env });
    expect(only.code, only.stderr).toBe(0);
    expect(Object.keys(providersOf(only.stdout))).toEqual([
      'bob@contoso.example.com',
      'di@outlook.com',
      'ed@filtered.example.com',
    ]);
    const verify = await home().run(['verify', 'cy@gmail.com', 'new@outlook.com', '--json'], { env });
    expect((JSON.parse(verify.stdout) as Array<Record<string, unknown>>).map((r) => [r.provider, r.fromCache])).toEqual(
      [
        ['google', true],
        ['microsoft', false],
      ],
    );
  });

  it('is not a column without the precheck, which --only provider=… then refuses', async () => {
    await registered(home(), await sandboxes.start({ shape, plan: 'unlimited' }));
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    const off = await home().run(['clean', input, '--no-precheck'], { env });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout.split('\n')[0]).not.toContain('email_provider');
    const refused = await home().run(['clean', input, '--no-precheck', '--only', 'provider=google'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^error: --only provider=google: providers are looked up by the precheck, which --no-precheck turns off/,
    );
  });
});
