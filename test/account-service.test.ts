// Against a standalone sandbox reached through --api-url/--clean-url, as against a real service, in both
// readings of what the spec leaves open (envelopes, token places, failure statuses: docs/assumptions.md).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { TestHome } from './helpers/cli.js';

const PASSWORD = 'correct horse battery';

describe.each(['spec', 'alt'] as const)('account commands against a configured service (%s shape)', (shape) => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let urls: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, shape, internalToken: 'internal-secret-123' });
    urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  const run = (args: string[], stdin?: string) => home.run([...urls, ...args], { stdin });

  async function registerBoth(email: string) {
    const reg = await run(['register', '--name', 'Ada', '--email', email, '--password-stdin', '--service', 'all'], PASSWORD);
    expect(reg.code, reg.stderr).toBe(0);
  }

  it('registers on both services, logs out, and logs in to both with one password', async () => {
    await registerBoth('ada1@example.com');
    expect((await run(['logout'])).code).toBe(0);
    const status = await run(['auth', 'status', '--json']);
    expect(status.code).toBe(4);
    expect(JSON.parse(status.stdout).map((s: { signedIn: boolean }) => s.signedIn)).toEqual([false, false]);

    const login = await run(['login', '--email', 'ada1@example.com', '--password-stdin', '--json'], PASSWORD);
    expect(login.code, login.stderr).toBe(0);
    const out = JSON.parse(login.stdout);
    expect(out.platform.ok).toBe(true);
    expect(out.clean.ok).toBe(true);

    const after = await run(['auth', 'status', '--json']);
    expect(after.code).toBe(0);
    const [platform, clean] = JSON.parse(after.stdout);
    expect(platform).toMatchObject({ service: 'platform', signedIn: true, verified: true, email: 'ada1@example.com', tokenSource: 'profile' });
    expect(clean).toMatchObject({ service: 'clean', signedIn: true, tokenSource: 'profile' });
    expect(platform.token).toContain('…');
  });

  it('with --service all, one side failing is a warning when the other succeeds', async () => {
    const reg = await run(['register', '--name', 'Bo', '--email', 'bo@example.com', '--password-stdin'], PASSWORD);
    expect(reg.code).toBe(0);
    const login = await run(['login', '--email', 'bo@example.com', '--password-stdin'], PASSWORD);
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/warning: clean: the cleaning service did not accept that email and password/);
  });

  it('auth token prints the stored token, for scripts', async () => {
    await registerBoth('ada2@example.com');
    const token = await run(['auth', 'token']);
    expect(token.code).toBe(0);
    expect(token.stdout.trim()).toMatch(/^\S{43,}$/);
    const clean = await run(['auth', 'token', '--service', 'clean']);
    expect(clean.stdout.trim()).not.toBe(token.stdout.trim());
    // The token works when given through the environment.
    const viaEnv = await home.run([...urls, 'me', '--json', 'email'], { env: { MAILCLEAN_TOKEN: token.stdout.trim() } });
    expect(JSON.parse(viaEnv.stdout)).toEqual({ email: 'ada2@example.com' });
  });

  it('me update changes only the fields given', async () => {
    await registerBoth('ada3@example.com');
    const first = await run(['me', 'update', '--last-name', 'Lovelace', '--phone', '+1 555 0100', '--country-code', 'GB', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', phone: '+1 555 0100', country_code: 'GB' });
    const second = await run(['me', 'update', '--first-name', 'Augusta', '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', phone: '+1 555 0100', country_code: 'GB' });
    const me = JSON.parse((await run(['me', '--json'])).stdout);
    expect(me).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', phone: '+1 555 0100' });
  });

  it('me update with a field still missing and prompts off names the flag', async () => {
    await registerBoth('ada4@example.com');
    const res = await run(['me', 'update', '--first-name', 'Ada']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: --last-name is required/m);
  });

  it('me --brand selects the current brand', async () => {
    await registerBoth('ada5@example.com');
    const me = JSON.parse((await run(['me', '--json'])).stdout);
    const picked = await run(['me', '--brand', me.brand.id, '--json', 'brand']);
    expect(picked.code).toBe(0);
    expect(JSON.parse(picked.stdout).brand.id).toBe(me.brand.id);
    const unknown = await run(['me', '--brand', 'no-such-brand']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')[0]).toBe('error: --brand: "no-such-brand" is not one of your brands');
  });

  it('roles --permissions shows each permission with the roles holding it', async () => {
    await registerBoth('ada6@example.com');
    const res = await run(['roles', '--permissions', '--json']);
    expect(res.code).toBe(0);
    const rows: Array<{ name: string; roles: string[] }> = JSON.parse(res.stdout);
    expect(rows.find((r) => r.name === 'recipe-create')?.roles.sort()).toEqual(['admin', 'manager', 'superadmin']);
    expect(rows.find((r) => r.name === 'contact-get')?.roles.sort()).toEqual(['admin', 'manager', 'superadmin', 'user']);
    expect(rows.some((r) => r.name === 'integration-get-all-containers ')).toBe(true);
    const table = await run(['roles', '--permissions', '--role', 'user']);
    expect(table.stdout.split('\n')[0]).toBe('CATEGORY\tPERMISSION\tUSER');
    expect(table.stdout).toContain('"integration-get-all-containers "');
    expect(table.stdout).not.toMatch(/\trecipe-create\t/);
  });

  it('oem-register takes the internal token from the environment, never a flag', async () => {
    const missing = await run(['oem-register', '--name', 'Cy', '--email', 'cy@example.com', '--password-stdin'], PASSWORD);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('MAILCLEAN_INTERNAL_TOKEN');
    const ok = await home.run([...urls, 'oem-register', '--name', 'Cy', '--email', 'cy@example.com', '--password-stdin', '--json', 'email'], {
      stdin: PASSWORD,
      env: { MAILCLEAN_INTERNAL_TOKEN: 'internal-secret-123' },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ email: 'cy@example.com' });
    const wrong = await home.run([...urls, 'oem-register', '--name', 'Di', '--email', 'di@example.com', '--password-stdin'], {
      stdin: PASSWORD,
      env: { MAILCLEAN_INTERNAL_TOKEN: 'wrong' },
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/^error: the platform refused the internal access token from MAILCLEAN_INTERNAL_TOKEN$/m);
  });

  it('login --with-token checks a platform token and stores it', async () => {
    await registerBoth('ada7@example.com');
    const token = (await run(['auth', 'token'])).stdout.trim();
    await run(['logout']);
    const res = await run(['login', '--with-token', '--service', 'platform'], `${token}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('ada7@example.com');
    expect((await run(['auth', 'token'])).stdout.trim()).toBe(token);
    const all = await run(['login', '--with-token'], token);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('--service platform or --service clean');
  });

  it('profiles keep endpoints and credentials apart', async () => {
    const set = await home.run(['config', 'set', 'api-url', sandbox.url, '--profile', 'work']);
    expect(set.code).toBe(0);
    await home.run(['config', 'set', 'clean-url', sandbox.url, '--profile', 'work']);
    const reg = await home.run(['register', '--profile', 'work', '--name', 'Ed', '--email', 'ed@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect(reg.code, reg.stderr).toBe(0);
    const me = await home.run(['me', '--json', 'email'], { env: { MAILCLEAN_PROFILE: 'work' } });
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ed@example.com' });
    const list = await home.run(['config', 'list', '--profile', 'work']);
    expect(list.stdout).toContain(`api-url=${sandbox.url}`);
    expect(list.stdout).toMatch(/^token=…\S{4}$/m);
  });
});
