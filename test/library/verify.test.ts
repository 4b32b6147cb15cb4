// `verify` and a client made from a stored profile, against the sandbox on 127.0.0.1 (both answer shapes): the
// library pays once per address through the account's cache, and shares the account's state with the CLI.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  CliError,
  clean,
  createClient,
  ExitCode,
  type VerifyEvent,
  verify,
} from '../../src/library/index.js';
import { useHome } from '../helpers/cli.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';
import { startSmtpPeer } from '../helpers/smtp-peer.js';

const sandboxes = useSandboxes('mailclean-library-');
const home = useHome();

describe.each(['spec', 'alt'] as const)('the library with a profile of the CLI (%s answers)', (shape) => {
  it('verify pays once per address: the answer goes to the cache the CLI reads, and comes from it', async () => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape });
    await registered(home(), sandbox);
    const options = { profile: 'default', env: home().env() };
    const events: VerifyEvent[] = [];
    const first = await verify(['ada@example.com', 'not an address', 'ada@example.com'], {
      ...options,
      precheck: false,
      onEvent: (e) => events.push(e),
    });
    expect(first.map((r) => [r.address, r.status, r.checker, r.fromCache])).toEqual([
      ['ada@example.com', 'valid', 'service', false],
      ['not an address', 'invalid', 'service', false],
      ['ada@example.com', 'valid', 'service', false],
    ]);
    expect(sandbox.stats().addressesCharged).toBe(1);
    const again = await verify(['ada@example.com'], options);
    expect(again[0]).toMatchObject({ status: 'valid', fromCache: true });
    expect(sandbox.stats().addressesCharged).toBe(1);
    const cli = await home().run(['verify', 'ada@example.com', '--json', 'fromCache']);
    expect(JSON.parse(cli.stdout)).toEqual([{ fromCache: true }]);
    expect(events).toEqual([]);
  });

  it("a clean through the API leaves a journal the CLI's clean resumes, paying only the rest", async () => {
    const sandbox = await sandboxes.start({ plan: 'pro', shape, rate: { requests: 1_000, windowMs: 60_000 } });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email\n${Array.from({ length: 100 }, (_, i) => `p${i}@example.com`).join('\n')}\n`);
    const client = createClient({ profile: 'default', env: home().env(), rate: '1000/1s' });
    try {
      const run = client.clean(input, { maxSpend: 40, precheck: false });
      for await (const _row of run);
      expect(await run.result).toMatchObject({ kind: 'finished', exitCode: ExitCode.partial });
    } finally {
      await client.close();
    }
    expect(sandbox.stats().addressesCharged).toBe(40);
    // The run is in the account's history, with no command line for `runs resume` to repeat.
    const history = await home().run(['runs', '--json', 'status,commandLine']);
    expect(JSON.parse(history.stdout)).toEqual([{ status: 'ended', commandLine: null }]);
    const res = await home().run([
      'clean',
      input,
      '--resume',
      '--no-precheck',
      '--rate',
      '1000/1s',
      '-o',
      `${input}.out`,
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/Resuming: 40 addresses already checked/);
    expect(sandbox.stats().addressesCharged).toBe(100);
  });

  it('names a missing token with the exit code of an authentication failure', async () => {
    const sandbox = await sandboxes.start({ shape });
    const run = clean(['a@example.com'], { cleanUrl: sandbox.url, dataDir: home().dataDir, env: {} });
    await expect(run.result).rejects.toBeInstanceOf(AuthError);
    await expect(run.result).rejects.toMatchObject({ exitCode: 4, message: 'not signed in to the cleaning service' });
    expect(sandbox.stats().cleanRequests).toBe(0);
  });
});

describe.each(['spec', 'alt'] as const)('verify() failing before any address is checked (%s answers)', (shape) => {
  it('rejects with an AuthError (exit 4) for a refused token, and a CliError (exit 1) for a URL with no service', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', shape });
    const options = { token: 'expired-token-0123456789', dataDir: home().dataDir, precheck: false, env: {} };
    const refused = verify(['ann@example.com'], { ...options, cleanUrl: sandbox.url });
    await expect(refused).rejects.toBeInstanceOf(AuthError);
    await expect(refused).rejects.toMatchObject({ exitCode: ExitCode.auth });
    const nowhere = verify(['ann@example.com'], { ...options, cleanUrl: 'http://127.0.0.1:1' });
    await expect(nowhere).rejects.toBeInstanceOf(CliError);
    await expect(nowhere).rejects.toMatchObject({ exitCode: ExitCode.error, message: /nothing was sent/ });
    expect(sandbox.stats().addressesCharged).toBe(0);
  });
});

describe('verify without a service', () => {
  it('checks with the built-in engine in-process, spending nothing', async () => {
    const results = await verify(['x@example.invalid', 'bob@'], { dataDir: home().dataDir, dnsServers: '127.0.0.1:9' });
    expect(results.map((r) => [r.status, r.reason, r.checker])).toEqual([
      ['invalid', 'reserved_domain', 'local'],
      ['invalid', 'syntax', 'local'],
    ]);
  });

  it('takes dnsConcurrency and dnsTimeout, and names either when its value is wrong', async () => {
    const base = { dataDir: home().dataDir, dnsServers: '127.0.0.1:9' };
    const results = await verify(['x@example.invalid'], { ...base, dnsConcurrency: 8, dnsTimeout: '250ms' });
    expect(results.map((r) => r.reason)).toEqual(['reserved_domain']);
    await expect(verify(['x@example.invalid'], { ...base, dnsConcurrency: 0 })).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: 'dnsConcurrency: "0" is not a whole number from 1 to 1024',
    });
    await expect(verify(['x@example.invalid'], { ...base, dnsTimeout: 'soon' })).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: 'dnsTimeout: "soon" is not a timeout from 10ms to 60s',
    });
  });

  it('asks the mail server about each mailbox when smtp is on, as `clean --local --smtp` does', async () => {
    const dns = await startDnsServer((name) => {
      if (name === 'accept.internal') return { MX: [{ preference: 10, exchange: 'mx.peer.internal' }] };
      return name === 'mx.peer.internal' ? { A: ['127.0.0.1'] } : undefined;
    });
    const peer = await startSmtpPeer();
    try {
      const addresses = ['alice@accept.internal', 'zed@accept.internal'];
      const base = { dataDir: home().dataDir, dnsServers: dns.server, local: true };
      const withoutProbe = await verify(addresses, base);
      expect(withoutProbe.map((r) => r.status)).toEqual(['valid', 'valid']);
      expect(peer.rcpts).toEqual([]);
      const probe = { smtp: true, smtpPort: peer.port, smtpFrom: 'probe@mailclean.internal' };
      const probed = await verify(addresses, { ...base, ...probe });
      expect(probed.map((r) => [r.status, r.reason])).toEqual([
        ['valid', ''],
        ['invalid', 'mailbox_rejected'],
      ]);
      expect(peer.mailFrom).toContain('probe@mailclean.internal');
    } finally {
      await peer.close();
      await dns.close();
    }
  });

  it('a stop while DNS is silent leaves the addresses unchecked, without waiting for the lookups', async () => {
    const dns = await startDnsServer(() => ({ silent: true }));
    const stop = new AbortController();
    try {
      const verifying = verify(['ann@quiet-one.com', 'bob@quiet-two.com'], {
        dataDir: home().dataDir,
        dnsServers: dns.server,
        signal: stop.signal,
      });
      while (dns.queries.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      stop.abort();
      const results = await verifying;
      expect(results.map((r) => [r.status, r.reason, r.checkedAt])).toEqual([
        ['unchecked', '', null],
        ['unchecked', '', null],
      ]);
    } finally {
      await dns.close();
    }
  });
});
