// The package as users get it: `npm pack`, then `npm install -g` of the tarball into an empty prefix (its
// dependencies from a registry on loopback that serves what package-lock.json locks, out of the npm cache), and
// the installed command run: help, version, a clean with the built-in engine, an account on the built-in sandbox.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { closedPort } from '../helpers/http-server.js';
import { type LocalRegistry, startRegistry } from '../helpers/registry.js';

const ROOT = join(import.meta.dirname, '..', '..');
// npm and the installed bin run on the Node running the tests.
const PATH = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;

function run(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, PATH, ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** The same, without blocking this process: the registry npm installs from runs in it. */
function runAsync(command: string, args: string[], cwd: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, PATH }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error) => resolve({ status: null, stderr: String(error) }));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

describe('the npm package', () => {
  let dir: string;
  let registry: LocalRegistry;
  let bin: string;
  let tarball: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-package-'));
    env = { MAILCLEAN_CONFIG_DIR: join(dir, 'config'), MAILCLEAN_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
    // dist/ is already built by `npm test`; packing must not rebuild it under the other tests' feet.
    const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir]);
    expect(packed.status, packed.stderr).toBe(0);
    tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!);
    const cache = run('npm', ['config', 'get', 'cache']).stdout.trim();
    registry = await startRegistry(join(ROOT, 'package-lock.json'), cache);
    const installed = await runAsync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        join(dir, 'prefix'),
        '--registry',
        registry.url,
        '--cache',
        join(dir, 'npm-cache'),
        '--no-audit',
        '--no-fund',
        tarball,
      ],
      dir,
    );
    expect(
      installed.status,
      `${installed.stderr}\nnot in the lock or the npm cache (run npm ci): ${registry.missing.join(', ')}`,
    ).toBe(0);
    bin = join(dir, 'prefix', 'bin', 'mailclean');
  }, 180_000);
  afterAll(async () => {
    await registry?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the built code, the docs README links to and the licence; not the sources or the tests', () => {
    const files = run('tar', ['-tzf', tarball]).stdout.trim().split('\n');
    for (const file of [
      'package/bin/mailclean.js',
      'package/dist/main.js',
      'package/README.md',
      'package/LICENSE',
      'package/CHANGELOG.md',
      'package/man/mailclean.1',
      'package/docs/json.md',
      'package/docs/verify.md',
    ])
      expect(files).toContain(file);
    expect(files.filter((f) => /^package\/(src|test|bench|fixtures)\//.test(f))).toEqual([]);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [, link] of readme.matchAll(/\]\((docs\/[^)#]+)/g)) expect(files).toContain(`package/${link}`);
  });

  it('installed into an empty prefix, its man page is where `man` looks', () => {
    expect(readFileSync(join(dir, 'prefix', 'share', 'man', 'man1', 'mailclean.1'), 'utf8')).toMatch(
      /^\.TH MAILCLEAN 1 /,
    );
  });

  it('installed into an empty prefix, it answers --version and --help', () => {
    expect(run(bin, ['--version'], { env }).stdout).toBe(`${VERSION}\n`);
    const help = run(bin, ['--help'], { env });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mailclean /m);
  });

  it('cleans a list with the built-in engine (DNS kept on loopback): every row back, exit 0', async () => {
    const input = join(ROOT, 'fixtures', 'clean', 'mailchimp.csv');
    const out = join(dir, 'cleaned.csv');
    const res = run(bin, ['clean', input, '-o', out, '--dns-server', `127.0.0.1:${await closedPort()}`], { env });
    expect(res.status, res.stderr).toBe(0);
    const rows = (text: string) => text.trim().split(/\r?\n/).length;
    expect(rows(readFileSync(out, 'utf8'))).toBe(rows(readFileSync(input, 'utf8')));
    expect(readFileSync(out, 'utf8').split(/\r?\n/)[0]).toMatch(/,email_status,/);
  });

  it('registers on the built-in sandbox and shows the account', () => {
    const reg = run(bin, ['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], {
      env,
      input: 'a long password',
    });
    expect(reg.status, reg.stderr).toBe(0);
    const me = run(bin, ['me', '--json', 'email'], { env });
    expect(me.status, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ada@example.com' });
  });
});
