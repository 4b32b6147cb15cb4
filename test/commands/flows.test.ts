// Flows whose subject is several commands together: an account used from register to clean, the URLs a
// profile keeps, and secrets that never show on screen (--debug included) across every account command.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const home = useHome();

describe('account commands on the built-in sandbox (no configuration)', () => {
  it('registers with a piped password, then me --json and roles --json work', async () => {
    const reg = await home().run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'correct horse battery\n',
    });
    expect(reg.stderr).toContain('built-in sandbox');
    expect(reg.stderr).toContain('Registered ada@example.com on the platform');
    expect(reg.code).toBe(0);

    const me = await home().run(['me', '--json']);
    expect(me.code).toBe(0);
    const view = JSON.parse(me.stdout);
    expect(view.email).toBe('ada@example.com');
    expect(view.first_name).toBe('Ada');
    expect(view.last_name).toBe('');
    expect(view.email_verified).toBe(false);
    expect(view.role.name).toBe('admin');
    expect(view.brand.id).toEqual(expect.any(String));

    const roles = await home().run(['roles', '--json']);
    expect(roles.code).toBe(0);
    const list = JSON.parse(roles.stdout);
    expect(list.map((r: { name: string }) => r.name).sort()).toEqual(['admin', 'manager', 'superadmin', 'user']);
    expect(list[0].permissions[0]).toEqual(
      expect.objectContaining({ name: expect.any(String), category: expect.any(String) }),
    );
  });
});

describe('login and register save the URLs they were given', () => {
  const sandboxes = useSandboxes();

  it('login with --api-url/--clean-url, then plain `clean` and `me` use those URLs', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    const urls = urlsOf(sandbox);
    await registered(home(), sandbox, { email: 'stick@example.com', service: 'all' });
    expect((await home().run(['logout'])).code).toBe(0);
    const login = await home().run([...urls, 'login', '--email', 'stick@example.com', '--password-stdin'], {
      stdin: PASSWORD,
    });
    expect(login.code, login.stderr).toBe(0);

    const list = await home().run(['config', 'list']);
    expect(list.stdout).toContain(`api-url=${sandbox.url}\n`);
    expect(list.stdout).toContain(`clean-url=${sandbox.url}\n`);
    expect(list.stdout).toMatch(/^clean-token=…\S{4}$/m);

    const me = await home().run(['me', '--json', 'email']);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'stick@example.com' });
    expect(me.stderr).not.toContain('sandbox');

    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\nbob@example.org\n');
    const charged = sandbox.stats().addressesCharged;
    const clean = await home().run(['clean', input, '-o', join(home().dir, 'out.csv')]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).not.toContain('built-in');
    expect(sandbox.stats().addressesCharged).toBe(charged + 2);

    // config list, auth status and auth token agree on where the cleaning token lives.
    const token = await home().run(['auth', 'token', '--service', 'clean']);
    expect(token.code, token.stderr).toBe(0);
    const status = await home().run(['auth', 'status', '--json']);
    const clean2 = JSON.parse(status.stdout)[1];
    expect(clean2).toMatchObject({ service: 'clean', url: sandbox.url, signedIn: true, tokenSource: 'profile' });
    expect(list.stdout).toContain(`clean-token=${clean2.token}\n`);
    expect(token.stdout.trim().endsWith(clean2.token.slice(1))).toBe(true);
  });
});

// Secrets stay where they belong: a 0600 file in a 0700 directory, never on screen, --debug included.
describe('secrets', () => {
  const sandboxes = useSandboxes();
  const SECRET_PASSWORD = 'a-very-secret-password-42';

  it('never prints a token or password with --debug, and keeps them in a 0600 file', async () => {
    const urls = [...urlsOf(await sandboxes.start()), '--debug'];
    const outputs: string[] = [];
    const run = async (args: string[], stdin?: string) => {
      const res = await home().run([...urls, ...args], { stdin });
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.stdout, res.stderr);
    };
    await run(
      ['register', '--name', 'Ada', '--email', 'sec@example.com', '--password-stdin', '--service', 'all'],
      SECRET_PASSWORD,
    );
    await run(['login', '--email', 'sec@example.com', '--password-stdin'], SECRET_PASSWORD);
    await run(['me']);
    await run(['me', '--json']);
    await run(['me', 'update', '--last-name', 'Lovelace', '--phone', '123']);
    await run(['roles']);
    await run(['auth', 'status']);
    await run(['config', 'list']);

    const file = join(home().configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home().configDir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8')).profiles.default;
    const secrets = [SECRET_PASSWORD, stored.token, stored['cdp-token'], stored['clean-token']];
    expect(secrets.every((s) => typeof s === 'string' && s.length > 20)).toBe(true);

    const all = outputs.join('\n');
    // The debug log really ran (so the check below means something) and shows where secrets were.
    expect(all).toContain('> POST');
    expect(all).toContain('[redacted]');
    for (const secret of secrets) {
      expect(all).not.toContain(secret);
      // Nor the secret half of an id.secret token.
      const tail = secret.split('.').at(-1)!;
      expect(all).not.toContain(tail);
    }
  });

  it('never shows the user name and password of a base URL (http://user:pass@host)', async () => {
    const sandbox = await sandboxes.start();
    const withCreds = sandbox.url.replace('http://', 'http://deploy:url-pass-0042@');
    const urls = ['--api-url', withCreds, '--clean-url', withCreds, '--debug'];
    const outputs: string[] = [];
    for (const args of [
      ['register', '--name', 'Bo', '--email', 'url@example.com', '--password-stdin', '--service', 'all'],
      ['me'],
      ['auth', 'status', '--json'],
      ['config', 'list'],
      ['config', 'get', 'api-url'],
    ]) {
      const res = await home().run([...urls, ...args], { stdin: SECRET_PASSWORD });
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.stdout, res.stderr);
    }
    const all = outputs.join('\n');
    expect(all).toContain('http://***@127.0.0.1');
    expect(all).not.toContain('url-pass-0042');
    expect(all).not.toContain('deploy:');
  });
});
