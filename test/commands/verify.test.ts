// `mailclean verify`: the built-in engine against a DNS server on 127.0.0.1, and the cleaning service (the sandbox,
// in both answer shapes) through the account's cache; verdicts for people, --json for scripts, exit codes by verdict.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_FIELDS } from '../../src/commands/common/json-fields.js';
import type { VerifyRow } from '../../src/commands/verify.js';
import { expectError, useHome } from '../helpers/cli.js';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.js';
import { eventually, startGate } from '../helpers/gate.js';
import { closedPort } from '../helpers/http-server.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

describe('verify with the built-in engine', () => {
  const home = useHome();
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'mail.example.com': { MX: [{ preference: 10, exchange: 'mx.mail.example.com' }] },
      'nomail.com': { MX: [{ preference: 0, exchange: '.' }] },
      'gmial.com': { MX: [{ preference: 10, exchange: 'mx.gmial.com' }] },
    });
  });
  afterAll(() => dns.close());

  it('a valid address exits 0 and says so; nothing is spent, no account is needed', async () => {
    const res = await home().run(['verify', 'ann@mail.example.com', '--dns-server', dns.server]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^ann@mail\.example\.com\tvalid\t/m);
    expect(res.stderr).toMatch(/built-in engine/);
  });

  it('an invalid or risky one exits 5; --json gives every field for each address as given, in order', async () => {
    const res = await home().run([
      'verify',
      'ann@mail.example.com',
      'di@nomail.com',
      'bob@gmial.com',
      'x@@y',
      '--dns-server',
      dns.server,
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(5);
    const rows = JSON.parse(res.stdout) as VerifyRow[];
    expect(rows.map((r) => Object.keys(r))).toEqual(rows.map(() => VERIFY_FIELDS));
    expect(rows.map((r) => [r.address, r.status, r.reason, r.checker])).toEqual([
      ['ann@mail.example.com', 'valid', '', 'local'],
      ['di@nomail.com', 'invalid', 'null_mx', 'local'],
      ['bob@gmial.com', 'risky', 'possible_typo', 'local'],
      ['x@@y', 'invalid', 'syntax', 'local'],
    ]);
    expect(rows[2]!.suggestion).toBe('bob@gmail.com');
  });

  it('no definite answer (DNS unreachable) exits 3', async () => {
    const res = await home().run(['verify', 'ann@somewhere.com', '--dns-server', '127.0.0.1:9']);
    expect(res.code, res.stdout).toBe(3);
    expect(res.stdout).toMatch(/\tunknown\t/);
  });

  it('refuses more than 500 addresses, naming what to use instead', async () => {
    const res = await home().run(['verify', ...Array.from({ length: 501 }, (_, i) => `a${i}@example.com`)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/at most 500 addresses.*\n.*mailclean clean/);
  });
});

describe.each(['spec', 'alt'] as const)('verify with the cleaning service (%s shape)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('pays once per address: the answer goes to the cache and comes from it; --max-age 0 asks again; --local spends nothing', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    await registered(home(), sandbox);
    const first = await home().run(['verify', 'ann@example.com', 'bob@example.org', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as VerifyRow[]).map((r) => [r.status, r.checker, r.fromCache])).toEqual([
      ['valid', 'service', false],
      ['valid', 'service', false],
    ]);
    expect(sandbox.stats().addressesCharged).toBe(2);

    const again = await home().run(['verify', 'ann@example.com']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ann@example\.com\tvalid\tfrom the cache/);
    expect(sandbox.stats().addressesCharged).toBe(2);
    const cached = await home().run(['cache', 'stats', '--json', 'entries']);
    expect(JSON.parse(cached.stdout)).toEqual({ entries: 2 });

    expect((await home().run(['verify', 'ann@example.com', '--max-age', '0'])).code).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(3);
    const local = await home().run(['verify', 'carl@example.com', '--local', '--dns-server', '127.0.0.1:9', '--json']);
    expect((JSON.parse(local.stdout) as VerifyRow[])[0]!.checker).toBe('local');
    expect(sandbox.stats().addressesCharged).toBe(3);
  });

  it('a refused token (401) exits 4 with the hint for the variable it came from; a clean-url with nothing behind it exits 1', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    const env = { MAILCLEAN_CLEAN_TOKEN: 'expired-token-0123456789' };
    const refused = await home().run(['--clean-url', sandbox.url, 'verify', 'ann@example.com'], { env });
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(/^error: .*refused the credentials/m);
    expect(refused.stderr).toMatch(/^hint: MAILCLEAN_CLEAN_TOKEN holds a token the cleaning service does not accept/m);
    expect(refused.stdout).toBe('');
    const nowhere = await home().run(['--clean-url', 'http://127.0.0.1:1', 'verify', 'ann@example.com'], { env });
    expect(nowhere.code, nowhere.stderr).toBe(1);
    expect(nowhere.stderr).toMatch(
      /^error: cannot reach .*nothing was sent \(clean-url: http:\/\/127\.0\.0\.1:1\/\)$/m,
    );
    expect(sandbox.stats().addressesCharged).toBe(0);
  });

  it('a shared store that cannot be reached stops verify and clean before they send, in one line (exit 1)', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    await registered(home(), sandbox);
    const env = { MAILCLEAN_REDIS_URL: `redis://127.0.0.1:${await closedPort()}` };
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\n');
    for (const args of [
      ['verify', 'ann@example.com'],
      ['clean', input, '--no-precheck'],
    ]) {
      const res = await home().run(args, { env });
      expectError(
        res,
        1,
        /^error: the shared state at redis:\/\/127\.0\.0\.1:\d+ cannot be reached .*: nothing was sent$/,
      );
      expect(res.stderr).toMatch(/^hint: check the shared store/m);
    }
    expect(sandbox.stats().addressesCharged).toBe(0);
  });

  it('sends as many requests at once as clean does (4 by default), each address paid once', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    await registered(home(), sandbox);
    const token = (await home().run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    const door = await startGate(sandbox.url);
    try {
      const addresses = Array.from({ length: 250 }, (_, i) => `user${i}@example.com`);
      const env = { MAILCLEAN_CLEAN_URL: door.url, MAILCLEAN_CLEAN_TOKEN: token };
      const running = home().run(['verify', ...addresses, '--no-precheck', '--json', 'status'], { env });
      expect(await eventually(() => door.waiting() === 4, 10_000)).toBe(true);
      door.open();
      const res = await running;
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toHaveLength(250);
      expect(sandbox.stats().addressesCharged).toBe(250);
    } finally {
      await door.close();
    }
  });

  it('an exhausted allowance leaves the rest unchecked (exit 3) and is remembered', async () => {
    const sandbox = await sandboxes.start({ plan: 'free', shape });
    await registered(home(), sandbox);
    const many = Array.from({ length: 51 }, (_, i) => `user${i}@example.com`);
    const res = await home().run(['verify', ...many, '--json', 'status']);
    expect(res.code, res.stderr).toBe(3);
    const statuses = (JSON.parse(res.stdout) as Array<{ status: string }>).map((r) => r.status);
    expect(statuses.filter((s) => s === 'unchecked').length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 'valid').length).toBeLessThanOrEqual(50);
    expect(res.stderr).toMatch(/allowance/i);
  });
});
