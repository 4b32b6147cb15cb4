import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { TestHome } from './helpers/cli.js';

describe('the command line itself', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('--version prints the version package.json declares', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    const res = await home.run(['--version']);
    expect(res).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--help lists every command, grouped, on stdout', async () => {
    const res = await home.run(['--help']);
    expect(res.code).toBe(0);
    for (const name of ['clean', 'register', 'login', 'logout', 'auth', 'oem-register', 'me', 'roles', 'config', 'sandbox', 'completion']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    expect(res.stdout).toContain('Cleaning commands:');
    expect(res.stderr).toBe('');
  });

  it("a command's --help shows its flags", async () => {
    const res = await home.run(['clean', '--help']);
    expect(res.code).toBe(0);
    for (const flag of ['--output', '--format', '--column', '--only', '--rejects', '--rate', '--concurrency', '--max-spend', '--dry-run', '--resume', '--restart', '--local', '--yes']) {
      expect(res.stdout).toContain(flag);
    }
  });

  it('an unknown command is a usage error with a suggestion', async () => {
    const res = await home.run(['claen']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown command 'claen'/);
    expect(res.stderr).toMatch(/clean/);
  });

  it('completion scripts name the commands', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const res = await home.run(['completion', shell]);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('clean');
      expect(res.stdout).toContain('oem-register');
    }
    expect((await home.run(['completion', 'tcsh'])).code).toBe(2);
  });

  it('config set, get, list, unset and path', async () => {
    expect((await home.run(['config', 'set', 'api-url', 'https://api.example.com/'])).code).toBe(0);
    expect((await home.run(['config', 'get', 'api-url'])).stdout).toBe('https://api.example.com\n');
    expect((await home.run(['config', 'set', 'rate', '10/1m'])).code).toBe(0);
    expect((await home.run(['config', 'set', 'rate', 'fast'])).code).toBe(2);
    expect((await home.run(['config', 'set', 'api-url', 'nope'])).code).toBe(2);
    expect((await home.run(['config', 'set', 'token', 'abc'])).code).toBe(2);
    expect((await home.run(['config', 'list', '--json'])).stdout).toBe(`${JSON.stringify({ 'api-url': 'https://api.example.com', rate: '10/1m' }, null, 2)}\n`);
    expect((await home.run(['config', 'unset', 'rate'])).code).toBe(0);
    expect((await home.run(['config', 'get', 'rate'])).code).toBe(1);
    expect((await home.run(['config', 'path'])).stdout.trim()).toBe(`${home.configDir}/config.json`);
  });
});
