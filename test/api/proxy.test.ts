// Proxies and TLS as users behind a corporate network meet them: HTTP_PROXY/HTTPS_PROXY/NO_PROXY (either case)
// carry both services' requests through a real forward proxy on loopback that counts them; an endpoint whose
// certificate this machine does not trust gets a hint at NODE_EXTRA_CA_CERTS, which then works.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, TestHome } from '../helpers/cli.js';
import { closedPort } from '../helpers/http-server.js';
import { startProxy, type TestProxy } from '../helpers/proxy.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const sandboxes = useSandboxes();
let home: TestHome;
let proxy: TestProxy;
beforeEach(async () => {
  home = new TestHome();
  proxy = await startProxy();
});
afterEach(async () => {
  await proxy.close();
  home.cleanup();
});

function list(n: number): string {
  const path = join(home.dir, 'list.csv');
  writeFileSync(path, `email\n${Array.from({ length: n }, (_, i) => `p${i}@example.com`).join('\n')}\n`);
  return path;
}

describe.each(['spec', 'alt'] as const)('proxies (%s shape)', (shape) => {
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
  });
  const target = () => new URL(sandbox.url).host;

  it('HTTP_PROXY carries the platform and the cleaning service: register, me, clean', async () => {
    const env = { HTTP_PROXY: proxy.url };
    const reg = await home.run(
      [
        ...urlsOf(sandbox),
        'register',
        '--service',
        'all',
        '--name',
        'Pia',
        '--email',
        'pia@example.com',
        '--password-stdin',
      ],
      { stdin: PASSWORD, env },
    );
    expect(reg.code, reg.stderr).toBe(0);
    const afterRegister = proxy.seen.get(target()) ?? 0;
    expect(afterRegister).toBeGreaterThanOrEqual(2); // one sign-up on each service
    expect((await home.run(['me', '--json', 'email'], { env })).stdout).toBe(
      `${JSON.stringify({ email: 'pia@example.com' }, null, 2)}\n`,
    );
    expect(proxy.seen.get(target())).toBe(afterRegister + 1);
    const clean = await home.run(['clean', list(120), '-o', join(home.dir, 'out.csv')], { env });
    expect(clean.code, clean.stderr).toBe(0);
    expect(sandbox.stats().cleanRequests).toBe(3);
    expect(proxy.seen.get(target())).toBe(afterRegister + 1 + 3);
    expect([...proxy.seen.keys()]).toEqual([target()]);
  });

  it('lower-case http_proxy counts too, and wins over HTTP_PROXY', async () => {
    await registered(home, sandbox, { service: 'clean' });
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const res = await home.run(['clean', list(10), '--format', 'ndjson'], {
      env: { http_proxy: proxy.url, HTTP_PROXY: dead },
    });
    expect(res.code, res.stderr).toBe(0);
    expect(proxy.seen.get(target())).toBe(1);
  });

  it('NO_PROXY naming the host, or no proxy variable at all: the proxy sees nothing', async () => {
    await registered(home, sandbox, { service: 'clean' });
    for (const env of [
      { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
      { http_proxy: proxy.url, no_proxy: `localhost, ${target()}` },
      {},
    ]) {
      const res = await home.run(['clean', list(10), '--format', 'ndjson', '--restart'], { env });
      expect(res.code, res.stderr).toBe(0);
    }
    expect(proxy.total()).toBe(0);
    expect(sandbox.stats().cleanRequests).toBe(3);
  });

  it('a proxy that cannot be reached is named as the proxy (its password hidden), in one line', async () => {
    await registered(home, sandbox, { service: 'platform' });
    const port = await closedPort();
    const res = await home.run(['me'], { env: { HTTP_PROXY: `user:hunter2@127.0.0.1:${port}` } });
    expectError(
      res,
      1,
      `error: cannot reach the proxy http://***@127.0.0.1:${port} on the way to the platform at ${target()}: connection refused`,
    );
    expect(res.stderr).toMatch(/^hint: check HTTP_PROXY, HTTPS_PROXY and NO_PROXY$/m);
    expect(res.stderr).not.toContain('hunter2');
    const debug = await home.run(['me', '--debug'], {
      env: { HTTP_PROXY: `user:hunter2@127.0.0.1:${port}`, NO_PROXY: 'example.com' },
    });
    expect(debug.stderr).toContain(`proxy: http via http://***@127.0.0.1:${port}; not for example.com`);
    expect(debug.stderr).not.toContain('hunter2');
  });
});

describe('TLS', () => {
  let dir: string;
  let tls: Server | undefined;
  let sandbox: SandboxHandle;
  const openssl = spawnSync('openssl', ['version']).status === 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-tls-'));
    sandbox = await sandboxes.start({ plan: 'unlimited' });
  });
  afterEach(async () => {
    tls?.closeAllConnections();
    await new Promise((r) => (tls ? tls.close(r) : r(undefined)));
    tls = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  /** The sandbox behind HTTPS with a certificate of a private authority (self-signed), as a corporate gateway. */
  async function httpsFront(): Promise<{ url: string; ca: string }> {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    expect(made.status, made.stderr).toBe(0);
    const upstream = new URL(sandbox.url);
    tls = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const forwarded = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => tls!.listen(0, '127.0.0.1', resolve));
    return { url: `https://127.0.0.1:${(tls.address() as AddressInfo).port}`, ca: cert };
  }

  it.skipIf(!openssl)(
    'an untrusted certificate: one line naming the host, a hint at NODE_EXTRA_CA_CERTS, which then works through HTTPS_PROXY',
    { timeout: 30_000 },
    async () => {
      await registered(home, sandbox, { service: 'platform' });
      const front = await httpsFront();
      const host = new URL(front.url).host;
      const refused = await home.run(['me', '--api-url', front.url]);
      expectError(
        refused,
        1,
        `error: cannot reach the platform at ${host}: its TLS certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
      expect(refused.stderr).toMatch(/^hint: .*point NODE_EXTRA_CA_CERTS at that authority's PEM file$/m);

      // The advice, followed: a new process trusts the authority, and reaches the service through the proxy's tunnel.
      const child = spawn(process.execPath, [BIN, 'me', '--api-url', front.url, '--json', 'email'], {
        env: { ...process.env, ...home.env(), NODE_EXTRA_CA_CERTS: front.ca, HTTPS_PROXY: proxy.url },
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, err).toBe(0);
      expect(JSON.parse(out)).toEqual({ email: expect.stringMatching(/@example\.com$/) });
      expect(proxy.seen.get(host)).toBe(1);
    },
  );
  if (!openssl) it('TLS: skipped, openssl is not installed (needed to make a test certificate)', () => {});
});
