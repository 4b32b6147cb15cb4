// The precheck: with the service, what DNS and the lists can decide for free is not sent. Against the sandbox over
// HTTP (both answer shapes) and a DNS server on loopback: dead, null-MX, mail-less, disposable and mistyped domains
// are decided and say so; a "no such domain" said only once is sent; reserved TLDs are never looked up; without DNS,
// what needs none (reserved, disposable, mistyped) is still decided; with --no-precheck, all is sent. A long list is
// answered by the cache and the precheck whole before its first request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer, type ZoneEntry } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const MX = (name: string): ZoneEntry => ({ MX: [{ preference: 10, exchange: `mx.${name}` }] });
const LIST = [
  'email,name',
  'ada@live.example.com,live',
  'bob@live.example.com,live too',
  'cy@dead.example.com,no such domain',
  'di@nullmx.example.com,null MX',
  'ed@nomail.example.com,no mail host',
  'fay@mailinator.com,disposable',
  'gus@gmial.com,typo of gmail.com',
  'hal@flaky.example.com,NXDOMAIN once only',
  'ivy@site.test,reserved TLD',
  '',
].join('\n');

/** email -> [email_status, email_reason, email_checked_by]. */
function decisions(csv: string): Record<string, [string, string, string]> {
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  return Object.fromEntries(rows.map((r) => [r.email!, [r.email_status!, r.email_reason!, r.email_checked_by!]]));
}

describe.each(['spec', 'alt'] as const)('clean with the service: the precheck (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();
  let dns: TestDnsServer;
  let flakyAsked = 0;
  /** The sandbox's clean requests when a `gone…` domain was first asked about (before the first request). */
  let watched: { stats(): { cleanRequests: number } } | undefined;
  let requestsWhenGoneAsked: number | undefined;
  beforeAll(async () => {
    dns = await startDnsServer((name) => {
      if (name === 'flaky.example.com') return flakyAsked++ === 0 ? { rcode: 'NXDOMAIN' } : MX(name);
      if (name.startsWith('gone')) requestsWhenGoneAsked ??= watched?.stats().cleanRequests;
      const zones: Record<string, ZoneEntry> = {
        'live.example.com': MX('live.example.com'),
        'nullmx.example.com': { MX: [{ preference: 0, exchange: '.' }] },
        'nomail.example.com': { A: [] },
        'mailinator.com': MX('mailinator.com'),
        'gmial.com': MX('gmial.com'),
      };
      return zones[name];
    });
  });
  afterAll(() => dns.close());

  it('decides for free what DNS and the lists can, sends the rest, and says so in the rows, the summary and the dry run', async () => {
    flakyAsked = 0;
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };

    const dry = await home().run(['clean', input, '--dry-run', '--json'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      unique: 9,
      precheckSaves: 6,
      toSend: 3,
      precheckReasons: { no_domain: 1, null_mx: 1, no_mx: 1, disposable: 1, possible_typo: 1, reserved_domain: 1 },
    });
    expect(sandbox.stats().addressesCharged).toBe(0);

    flakyAsked = 0;
    const out = join(home().dir, 'out.csv');
    const summary = join(home().dir, 'summary.json');
    const res = await home().run(['clean', input, '-o', out, '--summary-json', summary], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/Precheck: 6 addresses decided here for free \(/);
    expect(res.stderr).toMatch(/the precheck saved 6 addresses of the allowance/);
    // A reserved TLD is decided without asking DNS, in the dry run and the run alike.
    expect(dns.queries.filter((q) => q.name.endsWith('.test'))).toEqual([]);
    // Only the live addresses and the one whose "no such domain" was not said twice were paid for.
    expect(sandbox.stats().addressesCharged).toBe(3);
    expect(decisions(readFileSync(out, 'utf8'))).toMatchObject({
      'ada@live.example.com': [expect.any(String), expect.any(String), 'service'],
      'cy@dead.example.com': ['invalid', 'no_domain', 'precheck'],
      'di@nullmx.example.com': ['invalid', 'null_mx', 'precheck'],
      'ed@nomail.example.com': ['invalid', 'no_mx', 'precheck'],
      'fay@mailinator.com': ['risky', 'disposable', 'precheck'],
      'gus@gmial.com': ['risky', 'possible_typo', 'precheck'],
      'hal@flaky.example.com': [expect.any(String), expect.any(String), 'service'],
      'ivy@site.test': ['invalid', 'reserved_domain', 'precheck'],
    });
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({
      precheck: {
        saved: 6,
        byReason: { disposable: 1, no_domain: 1, no_mx: 1, null_mx: 1, possible_typo: 1, reserved_domain: 1 },
        skipped: null,
      },
      answered: { fromJournal: 0, fromCache: 0, sent: 3 },
      spent: 3,
    });
  });

  it('sends everything with --no-precheck; without DNS, still decides what needs none (saying once that domain checks were skipped)', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, LIST);
    const off = await home().run(['clean', input, '--no-precheck', '-o', join(home().dir, 'off.csv')], {
      env: { MAILCLEAN_DNS_SERVERS: dns.server },
    });
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).not.toMatch(/[Pp]recheck/);
    expect(sandbox.stats().addressesCharged).toBe(9);

    // Another list, DNS refused (the tests' default resolver): the reserved TLD, the disposable domain and the typo
    // are decided without it, the six others are sent; one note says the domain checks were skipped.
    const other = join(home().dir, 'other.csv');
    writeFileSync(other, LIST.replace(/@/g, '.2@'));
    const dry = await home().run(['clean', other, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /Precheck saves +3 \(disposable 1, possible_typo 1, reserved_domain 1\), decided here for free; domain checks skipped: DNS does not answer \(ECONNREFUSED\)/,
    );
    const out = join(home().dir, 'other.out.csv');
    const unreachable = await home().run(['clean', other, '-o', out]);
    expect(unreachable.code, unreachable.stderr).toBe(0);
    expect(
      unreachable.stderr.match(/[Pp]recheck: domain checks skipped, DNS does not answer \(ECONNREFUSED/g),
    ).toHaveLength(1);
    expect(unreachable.stderr).toMatch(
      /3 addresses decided without it \(disposable 1, possible_typo 1, reserved_domain 1\): not sent/,
    );
    expect(sandbox.stats().addressesCharged).toBe(9 + 6);
    expect(decisions(readFileSync(out, 'utf8'))).toMatchObject({
      'fay.2@mailinator.com': ['risky', 'disposable', 'precheck'],
      'gus.2@gmial.com': ['risky', 'possible_typo', 'precheck'],
      'ivy.2@site.test': ['invalid', 'reserved_domain', 'precheck'],
      'cy.2@dead.example.com': [expect.any(String), expect.any(String), 'service'],
    });
  });
  it('answers a long list from the cache and the precheck before the first request, and sends none of what they answer', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    const cached = Array.from({ length: 30 }, (_, i) => `bob${i}@live.example.com`);
    const earlier = join(home().dir, 'earlier.csv');
    writeFileSync(earlier, `email\n${cached.join('\n')}\n`);
    expect((await home().run(['clean', earlier, '-o', join(home().dir, 'earlier.out.csv')], { env })).code).toBe(0);
    const before = sandbox.stats().cleanRequests;
    const first = Array.from({ length: 2_000 }, (_, i) => `ada${i}@live.example.com`);
    const gone = Array.from({ length: 20 }, (_, i) => `cy${i}@gone${i}.example.com`);
    const input = join(home().dir, 'long.csv');
    writeFileSync(input, `email\n${[...first, ...gone, ...cached].join('\n')}\n`);
    const out = join(home().dir, 'long.out.csv');
    const summary = join(home().dir, 'long.json');
    watched = sandbox;
    requestsWhenGoneAsked = undefined;
    const res = await home().run(['clean', input, '-o', out, '--summary-json', summary], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(requestsWhenGoneAsked).toBe(before);
    expect(sandbox.stats().addressesCharged).toBe(cached.length + first.length);
    expect(res.stderr).toMatch(/30 addresses answered within 30 days come from the cache: not sent/);
    expect(res.stderr).toMatch(/Precheck: 20 addresses decided here for free \(no_domain 20\): not sent/);
    const rows = decisions(readFileSync(out, 'utf8'));
    expect(rows['cy19@gone19.example.com']).toEqual(['invalid', 'no_domain', 'precheck']);
    expect(rows['bob29@live.example.com']?.[2]).toBe('service');
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({
      precheck: { saved: 20, byReason: { no_domain: 20 } },
      answered: { fromJournal: 0, fromCache: 30, sent: 2_000 },
      spent: 2_000,
    });
  });

  it('a run paced by the rate limit sends none of what the precheck decides, decided before its first request', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited', rate: { requests: 20, windowMs: 2_000 } });
    await registered(home(), sandbox);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    // Windows of 20 requests of 2 s: the addresses at the end are decided before the first window.
    const live = Array.from({ length: 2_000 }, (_, i) => `eve${i}@live.example.com`);
    const gone = Array.from({ length: 5 }, (_, i) => `fred${i}@gone-later${i}.example.com`);
    const input = join(home().dir, 'paced.csv');
    writeFileSync(input, `email\n${[...live, ...gone].join('\n')}\n`);
    watched = sandbox;
    requestsWhenGoneAsked = undefined;
    const out = join(home().dir, 'paced.out.csv');
    const res = await home().run(['clean', input, '-o', out, '--rate', '20/2s'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(requestsWhenGoneAsked).toBe(0);
    expect(sandbox.stats()).toMatchObject({ addressesCharged: live.length, rateLimited: 0 });
    expect(decisions(readFileSync(out, 'utf8'))['fred4@gone-later4.example.com']).toEqual([
      'invalid',
      'no_domain',
      'precheck',
    ]);
  });

  it('verify: a dead or disposable domain is decided for free, the rest is paid for; --no-precheck pays for all', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    const res = await home().run(
      ['verify', 'ada@live.example.com', 'cy@dead.example.com', 'fay@mailinator.com', '--json'],
      { env },
    );
    expect(res.code, res.stderr).toBe(5);
    expect(
      (JSON.parse(res.stdout) as Array<Record<string, unknown>>).map((r) => [r.address, r.reason, r.checker]),
    ).toEqual([
      ['ada@live.example.com', expect.any(String), 'service'],
      ['cy@dead.example.com', 'no_domain', 'precheck'],
      ['fay@mailinator.com', 'disposable', 'precheck'],
    ]);
    expect(sandbox.stats().addressesCharged).toBe(1);
    const all = await home().run(
      ['verify', 'di@nullmx.example.com', 'ed@nomail.example.com', '--no-precheck', '--max-age', '0', '--json'],
      { env },
    );
    expect(
      (JSON.parse(all.stdout) as Array<Record<string, unknown>>).map((r) => r.checker),
      all.stderr,
    ).toEqual(['service', 'service']);
    expect(sandbox.stats().addressesCharged).toBe(3);
  });

  it('a rerun of a list the journal and the precheck answer whole sends nothing and exits 0 unasked', async () => {
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'finished.csv');
    writeFileSync(input, 'email\nada@live.example.com\ncy@dead.example.com\nbob@live.example.com\n');
    const env = { MAILCLEAN_DNS_SERVERS: dns.server };
    const out = join(home().dir, 'finished.out.csv');
    expect((await home().run(['clean', input, '-o', out, '--max-spend', '1'], { env })).code).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(1);
    // Without a terminal, an address still to pay for (bob; cy is the precheck's, free) is refused before sending.
    const unfinished = await home().run(['clean', input, '-o', out], { env });
    expect(unfinished.code).toBe(2);
    expect(unfinished.stderr).toMatch(/saved 1 answer and has 1 address left to check/);
    expect(sandbox.stats().addressesCharged).toBe(1);
    expect((await home().run(['clean', input, '-o', out, '--resume'], { env })).code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(2);
    // The journal holds the two paid answers only; the precheck decides cy again, for free: the list is finished.
    const again = await home().run(['clean', input, '-o', out], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(2);
    expect(decisions(readFileSync(out, 'utf8'))).toMatchObject({
      'ada@live.example.com': [expect.any(String), expect.any(String), 'service'],
      'bob@live.example.com': [expect.any(String), expect.any(String), 'service'],
      'cy@dead.example.com': ['invalid', 'no_domain', 'precheck'],
    });
  });
});
