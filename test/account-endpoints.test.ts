// Endpoints and credentials stick: URLs given at login are saved with the tokens, and a profile that holds real
// credentials never falls back to the built-in sandbox.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { TestHome } from './helpers/cli.js';

const PASSWORD = 'correct horse battery';

describe('login and register save the URLs they were given', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited' });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('login with --api-url/--clean-url, then plain `clean` and `me` use those URLs', async () => {
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
    const reg = await home.run([...urls, 'register', '--service', 'all', '--name', 'Ada', '--email', 'stick@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect(reg.code, reg.stderr).toBe(0);
    expect((await home.run(['logout'])).code).toBe(0);
    const login = await home.run([...urls, 'login', '--email', 'stick@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect(login.code, login.stderr).toBe(0);

    const list = await home.run(['config', 'list']);
    expect(list.stdout).toContain(`api-url=${sandbox.url}\n`);
    expect(list.stdout).toContain(`clean-url=${sandbox.url}\n`);
    expect(list.stdout).toMatch(/^clean-token=…\S{4}$/m);

    const me = await home.run(['me', '--json', 'email']);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'stick@example.com' });
    expect(me.stderr).not.toContain('sandbox');

    const input = join(home.dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\nbob@example.org\n');
    const charged = sandbox.stats().addressesCharged;
    const clean = await home.run(['clean', input, '-o', join(home.dir, 'out.csv')]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('built-in');
    expect(sandbox.stats().addressesCharged).toBe(charged + 2);

    // config list, auth status and auth token agree on where the cleaning token lives.
    const token = await home.run(['auth', 'token', '--service', 'clean']);
    expect(token.code, token.stderr).toBe(0);
    const status = await home.run(['auth', 'status', '--json']);
    const clean2 = JSON.parse(status.stdout)[1];
    expect(clean2).toMatchObject({ service: 'clean', url: sandbox.url, signedIn: true, tokenSource: 'profile' });
    expect(list.stdout).toContain(`clean-token=${clean2.token}\n`);
    expect(token.stdout.trim().endsWith(clean2.token.slice(1))).toBe(true);
  });

  it('MAILCLEAN_API_URL and MAILCLEAN_CLEAN_URL given to register are saved too', async () => {
    const env = { MAILCLEAN_API_URL: sandbox.url, MAILCLEAN_CLEAN_URL: sandbox.url };
    const reg = await home.run(['register', '--name', 'Bo', '--email', 'env-urls@example.com', '--password-stdin'], { stdin: PASSWORD, env });
    expect(reg.code, reg.stderr).toBe(0);
    const list = await home.run(['config', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ 'api-url': sandbox.url, 'clean-url': sandbox.url });
  });
});

describe('a profile with real credentials never falls back to the sandbox', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited' });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  async function signedInThenUrlsRemoved(): Promise<void> {
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
    const reg = await home.run([...urls, 'register', '--service', 'all', '--name', 'Cy', '--email', 'nourl@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect(reg.code, reg.stderr).toBe(0);
    expect((await home.run(['config', 'unset', 'api-url'])).code).toBe(0);
    expect((await home.run(['config', 'unset', 'clean-url'])).code).toBe(0);
  }

  it('me and clean fail naming the missing key; no sandbox starts, no account is made', async () => {
    await signedInThenUrlsRemoved();
    const me = await home.run(['me']);
    expect(me.code).toBe(2);
    expect(me.stderr).toMatch(/^error: no api-url is configured for profile "default" \(it holds credentials, so the built-in sandbox is not used\)$/m);
    expect(me.stderr).not.toMatch(/Using the built-in sandbox/);

    const input = join(home.dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\n');
    const clean = await home.run(['clean', input, '-o', join(home.dir, 'out.csv')]);
    expect(clean.code).toBe(2);
    expect(clean.stderr).toMatch(/no clean-url is configured for profile "default", which holds a cleaning token/);
    expect(existsSync(join(home.dataDir, 'sandbox'))).toBe(false);
    expect(existsSync(join(home.dir, 'out.csv'))).toBe(false);
    expect(readFileSync(join(home.configDir, 'config.json'), 'utf8')).not.toMatch(/"sandbox":\s*\{\s*"default"/);
  });

  it('a token in MAILCLEAN_TOKEN with no URL is an error, not a sandbox run', async () => {
    const me = await home.run(['me'], { env: { MAILCLEAN_TOKEN: 'a-real-looking-token-0123456789' } });
    expect(me.code).toBe(2);
    expect(me.stderr).toMatch(/no api-url is configured/);
    expect(existsSync(join(home.dataDir, 'sandbox'))).toBe(false);
  });
});

describe('auth status hints fit where the token came from', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    home = new TestHome();
  });
  afterAll(async () => {
    await sandbox.close();
    home.cleanup();
  });

  it('a rejected MAILCLEAN_TOKEN says to fix or unset the variable, not to log in', async () => {
    const res = await home.run(['--api-url', sandbox.url, '--clean-url', sandbox.url, 'auth', 'status'], { env: { MAILCLEAN_TOKEN: 'not-a-token-the-platform-knows' } });
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(/MAILCLEAN_TOKEN holds a token the platform does not accept; fix it or unset it/);
    expect(res.stdout).not.toMatch(/mailclean login/);
  });

  it('a rejected stored token says to log in', async () => {
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
    await home.run([...urls, 'register', '--name', 'Di', '--email', 'di@example.com', '--password-stdin'], { stdin: PASSWORD });
    const config = join(home.configDir, 'config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace(/"token": "[^"]+"/, '"token": "revoked-token-value-0000"'));
    const res = await home.run(['auth', 'status']);
    expect(res.code).toBe(4);
    expect(res.stdout).toMatch(/token rejected: run `mailclean login`/);
  });

  it('on the built-in sandbox, the token is said to come from its own account', async () => {
    const sandboxHome = new TestHome();
    try {
      const reg = await sandboxHome.run(['register', '--name', 'Ed', '--email', 'ed@example.com', '--password-stdin'], { stdin: PASSWORD });
      expect(reg.code, reg.stderr).toBe(0);
      const res = await sandboxHome.run(['auth', 'status']);
      expect(res.stdout).toMatch(/Token: \S+ \(from the built-in sandbox account\)/);
      const none = await sandboxHome.run(['auth', 'token', '--service', 'clean']);
      expect(none.code).toBe(4);
      expect(none.stderr).toMatch(/no clean token: MAILCLEAN_CLEAN_TOKEN is unset and the built-in sandbox account holds none/);
    } finally {
      sandboxHome.cleanup();
    }
  });
});
