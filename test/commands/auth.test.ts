// `mailclean auth status` and `auth token`: where each token came from, hints that fit it, the token for scripts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useHome } from '../helpers/cli.js';
import { serve } from '../helpers/http-server.js';
import { registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const home = useHome();

describe('auth status hints fit where the token came from', () => {
  const sandboxes = useSandboxes();

  it('a rejected MAILCLEAN_TOKEN says to fix or unset the variable, not to log in', async () => {
    const sandbox = await sandboxes.start();
    const res = await home().run([...urlsOf(sandbox), 'auth', 'status'], {
      env: { MAILCLEAN_TOKEN: 'not-a-token-the-platform-knows' },
    });
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(/MAILCLEAN_TOKEN holds a token the platform does not accept; fix it or unset it/);
    expect(res.stdout).not.toMatch(/mailclean login/);
  });

  it('a rejected stored token says to log in', async () => {
    await registered(home(), await sandboxes.start(), { service: 'platform' });
    const config = join(home().configDir, 'config.json');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(/"token": "[^"]+"/, '"token": "revoked-token-value-0000"'),
    );
    const res = await home().run(['auth', 'status']);
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(/token rejected: run `mailclean login`/);
  });

  it('a bogus cleaning token: no ✓, exit 4, with the hint for where it came from', async () => {
    const sandbox = await sandboxes.start();
    await registered(home(), sandbox, { service: 'platform' });
    const env = { MAILCLEAN_CLEAN_TOKEN: 'bogus-cleaning-token-0000' };
    // Not asked by default: asking uses a request of the service's rate limit.
    const unasked = await home().run(['auth', 'status'], { env });
    expect(unasked.code, unasked.stderr).toBe(0);
    expect(unasked.stdout).toMatch(
      /^ {2}! Token given in the environment, not checked yet \(--check asks the service/m,
    );
    const res = await home().run(['auth', 'status', '--check'], { env });
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(
      /^Cleaning service .*\n {2}✗ token rejected: MAILCLEAN_CLEAN_TOKEN holds a token the cleaning service does not accept; fix it or unset it$/m,
    );
    expect(res.stdout.match(/✓/g)).toHaveLength(1); // the platform's, which it took
  });

  it('clean and verify with a refused MAILCLEAN_CLEAN_TOKEN: exit 4, the hint names the variable, not login', async () => {
    const sandbox = await sandboxes.start();
    await registered(home(), sandbox, { service: 'all' });
    const env = { MAILCLEAN_CLEAN_TOKEN: 'bogus-cleaning-token-0000' };
    const verified = await home().run(['verify', 'ann@example.com', '--no-precheck'], { env });
    expect(verified.code, verified.stderr).toBe(4);
    expect(verified.stderr).toMatch(
      /^hint: MAILCLEAN_CLEAN_TOKEN holds a token the cleaning service does not accept; fix it or unset it$/m,
    );
    const list = join(home().dir, 'list.csv');
    writeFileSync(list, 'email\nann@example.com\n');
    const cleaned = await home().run(['clean', list, '-o', join(home().dir, 'out.csv'), '--no-precheck'], { env });
    expect(cleaned.code, cleaned.stderr).toBe(4);
    expect(cleaned.stderr).toMatch(/^hint: MAILCLEAN_CLEAN_TOKEN holds a token the cleaning service does not accept/m);
    expect(cleaned.stderr).not.toMatch(/mailclean login/);
    // The stored token, refused, is a matter for login.
    const stored = await home().run(['verify', 'bob@example.com', '--no-precheck'], {
      env: { MAILCLEAN_CLEAN_URL: sandbox.url },
    });
    expect(stored.code, stored.stderr).toBe(0);
  });

  it('a cleaning token the service issued is ✓ without a request; --check spends one request of the rate limit', async () => {
    const sandbox = await sandboxes.start();
    await registered(home(), sandbox, { service: 'all' });
    const res = await home().run(['auth', 'status']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(
      /^Cleaning service .*\n {2}✓ Signed in as \S+ \(the service took this token \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/m,
    );
    expect(sandbox.stats().cleanRequests).toBe(0);
    const checked = await home().run(['auth', 'status', '--check']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(sandbox.stats().cleanRequests).toBe(1);
    expect(sandbox.stats().addressesCharged).toBe(0);
  });

  it('a cleaning service that cannot be reached: the token is "stored, not verified", never ✓ (exit 1)', async () => {
    const sandbox = await sandboxes.start();
    await registered(home(), sandbox, { service: 'all' });
    const down = await serve((_req, res) => res.writeHead(503).end());
    try {
      const res = await home().run(['auth', 'status', '--check', '--clean-url', down.url]);
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(
        /^ {2}! Token stored for \S+, not verified: the cleaning service at 127\.0\.0\.1:\d+ answered 503/m,
      );
      expect(res.stdout.match(/✓/g)).toHaveLength(1);
      const json = JSON.parse(
        (await home().run(['auth', 'status', '--check', '--clean-url', down.url, '--json'])).stdout,
      );
      expect(json[1]).toMatchObject({ service: 'clean', signedIn: true, verified: false });
    } finally {
      await down.close();
    }
  });

  it('on the built-in sandbox, the token is said to come from its own account', async () => {
    const reg = await home().run(['register', '--name', 'Ed', '--email', 'ed@example.com', '--password-stdin'], {
      stdin: 'correct horse battery',
    });
    expect(reg.code, reg.stderr).toBe(0);
    const res = await home().run(['auth', 'status']);
    expect(res.stdout).toMatch(/Token: \S+ \(from the built-in sandbox account\)/);
    const none = await home().run(['auth', 'token', '--service', 'clean']);
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(
      /no clean token: MAILCLEAN_CLEAN_TOKEN is unset and the built-in sandbox account holds none/,
    );
  });
});

describe.each(['spec', 'alt'] as const)('auth token against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape });
  });

  it('auth token prints the stored token, for scripts', async () => {
    await registered(home(), sandbox, { email: 'ada2@example.com', service: 'all' });
    const token = await home().run([...urlsOf(sandbox), 'auth', 'token']);
    expect(token.code).toBe(0);
    expect(token.stdout.trim()).toMatch(/^\S{43,}$/);
    const clean = await home().run([...urlsOf(sandbox), 'auth', 'token', '--service', 'clean']);
    expect(clean.stdout.trim()).not.toBe(token.stdout.trim());
    // The token works when given through the environment.
    const viaEnv = await home().run([...urlsOf(sandbox), 'me', '--json', 'email'], {
      env: { MAILCLEAN_TOKEN: token.stdout.trim() },
    });
    expect(JSON.parse(viaEnv.stdout)).toEqual({ email: 'ada2@example.com' });
  });
});
