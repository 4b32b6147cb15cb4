// The account flows against a standalone `mailclean sandbox --port P` process, reached with --api-url/--clean-url.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { closedPort } from '../helpers/http-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const PASSWORD = 'correct horse battery';

describe('against a standalone `mailclean sandbox --port P`', () => {
  const home = new TestHome();
  let server: ChildProcess;
  let urls: string[];

  beforeAll(async () => {
    const port = await closedPort();
    server = spawn(process.execPath, [BIN, 'sandbox', '--port', String(port), '--memory'], {
      env: { ...process.env, ...home.env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The URLs are printed on stdout once it listens.
    const printed = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('clean-url')) resolve(out);
      });
      server.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
    });
    const url = /api-url\s+(\S+)/.exec(printed)![1]!;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    urls = ['--api-url', url, '--clean-url', url];
  });
  afterAll(async () => {
    server.kill('SIGINT');
    await new Promise((resolve) => server.on('exit', resolve));
    home.cleanup();
  });

  const run = (args: string[], stdin?: string) => home.run([...urls, ...args], { stdin });

  it('register, logout, login to both with one password, auth status, me update, me --brand, roles --permissions', async () => {
    expect(
      (
        await run(
          ['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin', '--service', 'all'],
          PASSWORD,
        )
      ).code,
    ).toBe(0);
    expect((await run(['logout'])).code).toBe(0);
    expect((await run(['auth', 'status'])).code).toBe(4);
    const login = await run(['login', '--email', 'ada@example.com', '--password-stdin'], PASSWORD);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/Logged in as ada@example\.com on the platform/);
    expect(login.stderr).toMatch(/Logged in as ada@example\.com on the cleaning service/);
    const status = await run(['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Signed in as ada@example\.com\n/);

    const updated = await run([
      'me',
      'update',
      '--last-name',
      'Lovelace',
      '--phone',
      '+44 20 7946 0000',
      '--json',
      'first_name,last_name,phone',
    ]);
    expect(JSON.parse(updated.stdout)).toEqual({ first_name: 'Ada', last_name: 'Lovelace', phone: '+44 20 7946 0000' });
    const me = JSON.parse((await run(['me', '--json'])).stdout);
    const brand = await run(['me', '--brand', me.brand.id]);
    expect(brand.code).toBe(0);
    expect(brand.stdout).toContain(me.brand.id);

    const perms = await run(['roles', '--permissions']);
    expect(perms.code).toBe(0);
    expect(perms.stdout.split('\n')[0]).toBe('CATEGORY\tPERMISSION\tADMIN\tMANAGER\tSUPERADMIN\tUSER');
    expect(perms.stdout).toMatch(/\trecipe-create\tyes\tyes\tyes\t\n/);
  });
});
