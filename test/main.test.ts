// The command line itself (src/main.ts): version, help, and words it does not know.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { useHome } from './helpers/cli.js';

describe('the command line itself', () => {
  const home = useHome();

  it('--version prints the version package.json declares', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    const res = await home().run(['--version']);
    expect(res).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--help lists every command, grouped, on stdout', async () => {
    const res = await home().run(['--help']);
    expect(res.code).toBe(0);
    for (const name of [
      'clean',
      'register',
      'login',
      'logout',
      'auth',
      'oem-register',
      'me',
      'roles',
      'config',
      'sandbox',
      'completion',
    ]) {
      expect(res.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    }
    expect(res.stdout).toContain('Cleaning commands:');
    expect(res.stderr).toBe('');
  });

  it('an unknown command is a usage error with a suggestion', async () => {
    const res = await home().run(['claen']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown command 'claen'/);
    expect(res.stderr).toMatch(/clean/);
  });

  it('a bad flag: exit 2', async () => {
    const res = await home().run(['me', '--nope']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown option '--nope'/);
  });

  it('an unknown flag suggests the close one: one it begins, or one a few edits away; exit 2, nothing run', async () => {
    const cases: Array<[string[], string | undefined]> = [
      [['clean', 'list.csv', '--summary'], '--summary-json'],
      [['clean', 'list.csv', '--summary=s.json'], '--summary-json'],
      [['clean', 'list.csv', '--dryrun'], '--dry-run'],
      [['me', '--js'], '--json'],
      [['--prof', 'x', 'me'], '--profile'],
      [['clean', 'list.csv', '--xyzzy'], undefined],
    ];
    for (const [argv, suggested] of cases) {
      const res = await home().run(argv);
      expect(res.code, argv.join(' ')).toBe(2);
      const flag = argv.find((a) => a.startsWith('--'))!;
      expect(res.stderr, argv.join(' ')).toBe(
        `error: unknown option '${flag}'\n${suggested ? `(Did you mean ${suggested}?)\n` : ''}`,
      );
    }
  });
});
