// Secrets stay where they belong: a 0600 file in a 0700 directory, never on screen, --debug included.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { TestHome } from './helpers/cli.js';

const PASSWORD = 'a-very-secret-password-42';

describe('secrets', () => {
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

  it('never prints a token or password with --debug, and keeps them in a 0600 file', async () => {
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url, '--debug'];
    const outputs: string[] = [];
    const run = async (args: string[], stdin?: string) => {
      const res = await home.run([...urls, ...args], { stdin });
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.stdout, res.stderr);
    };
    await run(['register', '--name', 'Ada', '--email', 'sec@example.com', '--password-stdin', '--service', 'all'], PASSWORD);
    await run(['login', '--email', 'sec@example.com', '--password-stdin'], PASSWORD);
    await run(['me']);
    await run(['me', '--json']);
    await run(['me', 'update', '--last-name', 'Lovelace', '--phone', '123']);
    await run(['roles']);
    await run(['auth', 'status']);
    await run(['config', 'list']);

    const file = join(home.configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(home.configDir).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8')).profiles.default;
    const secrets = [PASSWORD, stored.token, stored['cdp-token'], stored['clean-token']];
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
    const withCreds = sandbox.url.replace('http://', 'http://deploy:url-pass-0042@');
    const other = new TestHome();
    try {
      const urls = ['--api-url', withCreds, '--clean-url', withCreds, '--debug'];
      const outputs: string[] = [];
      for (const args of [['register', '--name', 'Bo', '--email', 'url@example.com', '--password-stdin', '--service', 'all'], ['me'], ['auth', 'status', '--json'], ['config', 'list'], ['config', 'get', 'api-url']]) {
        const res = await other.run([...urls, ...args], { stdin: PASSWORD });
        expect(res.code, res.stderr).toBe(0);
        outputs.push(res.stdout, res.stderr);
      }
      const all = outputs.join('\n');
      expect(all).toContain('http://***@127.0.0.1');
      expect(all).not.toContain('url-pass-0042');
      expect(all).not.toContain('deploy:');
    } finally {
      other.cleanup();
    }
  });
});
