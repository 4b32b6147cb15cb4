// `mailclean config`: settings per profile, checked as they are set; profiles keep endpoints and credentials apart.
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectError, useHome } from '../helpers/cli.js';
import { PASSWORD, useSandboxes } from '../helpers/sandbox.js';

const home = useHome();

describe('config', () => {
  it('config set, get, list, unset and path', async () => {
    expect((await home().run(['config', 'set', 'api-url', 'https://api.example.com/'])).code).toBe(0);
    expect((await home().run(['config', 'get', 'api-url'])).stdout).toBe('https://api.example.com\n');
    expect((await home().run(['config', 'set', 'rate', '10/1m'])).code).toBe(0);
    expect((await home().run(['config', 'set', 'rate', 'fast'])).code).toBe(2);
    expect((await home().run(['config', 'set', 'api-url', 'nope'])).code).toBe(2);
    expect((await home().run(['config', 'set', 'token', 'abc'])).code).toBe(2);
    expect((await home().run(['config', 'set', 'token-storage', 'file'])).code).toBe(0);
    expectError(
      await home().run(['config', 'set', 'token-storage', 'vault']),
      2,
      'error: token-storage must be keyring or file, not "vault"',
    );
    expect((await home().run(['config', 'unset', 'token-storage'])).code).toBe(0);
    expect((await home().run(['config', 'list', '--json'])).stdout).toBe(
      `${JSON.stringify({ 'api-url': 'https://api.example.com', rate: '10/1m' }, null, 2)}\n`,
    );
    expect((await home().run(['config', 'unset', 'rate'])).code).toBe(0);
    expect((await home().run(['config', 'get', 'rate'])).code).toBe(1);
    expect((await home().run(['config', 'path'])).stdout.trim()).toBe(`${home().configDir}/config.json`);
  });
});

describe('the config file', () => {
  it('readable by others: made 0600 at once, with a warning naming the file', async () => {
    await home().run(['config', 'set', 'api-url', 'https://api.example.com']);
    const path = join(home().configDir, 'config.json');
    chmodSync(path, 0o644);
    const res = await home().run(['config', 'get', 'api-url']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('https://api.example.com\n');
    expect(res.stderr).toBe(
      `warning: ${path} was readable by others (mode 0644); it is now 0600. If others could log in here, sign in again to replace its tokens.\n`,
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await home().run(['config', 'get', 'api-url'])).stderr).toBe('');
  });

  it('not JSON: one error naming the file and line, no excerpt of its tokens, exit 2, and the file left as it was', async () => {
    const path = join(home().configDir, 'config.json');
    await home().run(['config', 'path']);
    for (const [text, where] of [
      ['{\n  "profiles": {"default": {"token": "tok-secret-0123456789" x}}}', `${path}:2: not valid JSON (column 61)`],
      ['tok-secret-0123456789', `${path}: not valid JSON`],
    ]) {
      writeFileSync(path, text!, { mode: 0o600 });
      const res = await home().run(['config', 'list']);
      expectError(res, 2, `error: ${where}`);
      expect(res.stderr).toMatch(/^hint: fix it, or move it away to start afresh/m);
      expect(res.stderr).not.toContain('tok-');
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });
});

describe.each(['spec', 'alt'] as const)('config profiles against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();

  it('profiles keep endpoints and credentials apart', async () => {
    const sandbox = await sandboxes.start({ shape });
    const set = await home().run(['config', 'set', 'api-url', sandbox.url, '--profile', 'work']);
    expect(set.code).toBe(0);
    await home().run(['config', 'set', 'clean-url', sandbox.url, '--profile', 'work']);
    const reg = await home().run(
      ['register', '--profile', 'work', '--name', 'Ed', '--email', 'ed@example.com', '--password-stdin'],
      { stdin: PASSWORD },
    );
    expect(reg.code, reg.stderr).toBe(0);
    const me = await home().run(['me', '--json', 'email'], { env: { MAILCLEAN_PROFILE: 'work' } });
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ed@example.com' });
    const list = await home().run(['config', 'list', '--profile', 'work']);
    expect(list.stdout).toContain(`api-url=${sandbox.url}`);
    expect(list.stdout).toMatch(/^token=…\S{4}$/m);
  });
});
