// The single executable (`npm run executable`), downloaded and checked by the README's own lines from a release
// served on loopback, then run with no Node on its PATH, from an empty folder: help, a `--local` clean, a verdict
// that needs its embedded disposable-domain list, an account on the built-in sandbox, and a copy of a list answered
// from the verdict cache (its pass runs in a worker thread, started from its source text: there is no file to start).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import { VERSION } from '../../src/version.js';
import { closedPort, type TestServer } from '../helpers/http-server.js';
import { EXECUTABLE, onLoopback, releaseFiles, serveRelease } from '../helpers/release.js';

const ROOT = join(import.meta.dirname, '..', '..');
const built = process.platform === 'linux' && process.arch === 'x64';
if (!built) console.log(`test/e2e/executable.test.ts: skipped: the executable is built and tested on Linux x64 only`);

/** The README's lines that fetch, check and start the executable. */
function readmeExecutableLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'), readme.indexOf('\n## Commands\n'));
  const block = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].find(([, b]) => b!.includes(EXECUTABLE));
  return block![1]!.trim().split('\n');
}

describe.runIf(built)('the single executable', { timeout: 120_000 }, () => {
  let dir: string;
  let server: TestServer & { requests: string[] };
  let exe: string;
  let env: Record<string, string>;
  let fetched: { status: number | null; out: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-executable-'));
    server = await serveRelease(releaseFiles(join(dir, 'release'), { executable: true }));
    const cwd = join(dir, 'download');
    mkdirSync(cwd);
    const script = readmeExecutableLines().map((line) => onLoopback(line, server));
    fetched = await new Promise((resolve) => {
      const child = spawn('bash', ['-euo', 'pipefail', '-c', script.join('\n')], {
        cwd,
        env: { PATH: '/usr/bin:/bin' },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (out += d));
      child.on('close', (status) => resolve({ status, out }));
    });
    exe = join(cwd, EXECUTABLE);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    // Nothing on PATH (no node, no npm), a home of its own.
    env = {
      PATH: empty,
      HOME: join(dir, 'home'),
      MAILCLEAN_CONFIG_DIR: join(dir, 'config'),
      MAILCLEAN_DATA_DIR: join(dir, 'data'),
      NO_COLOR: '1',
    };
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[], input?: string) =>
    spawnSync(exe, args, { cwd: join(dir, 'empty'), env, input, encoding: 'utf8', timeout: 60_000 });

  it("is fetched, checked against SHA256SUMS and started by the README's lines", () => {
    expect(fetched.status, fetched.out).toBe(0);
    expect(fetched.out).toContain(`${EXECUTABLE}: OK`);
    expect(fetched.out.trim().split('\n').at(-1)).toBe(VERSION);
  });

  it('answers --version and --help with no Node on its PATH', () => {
    expect(run(['--version']).stdout).toBe(`${VERSION}\n`);
    const help = run(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mailclean /m);
    expect(run(['clean', '--help']).stdout).toMatch(/^Usage: mailclean clean /m);
  });

  it('cleans a list with the built-in engine: every row back, exit 0', async () => {
    const input = join(ROOT, 'fixtures', 'clean', 'mailchimp.csv');
    const out = join(dir, 'cleaned.csv');
    const res = run(['clean', input, '--local', '-o', out, '--dns-server', `127.0.0.1:${await closedPort()}`]);
    expect(res.status, res.stderr).toBe(0);
    const rows = (text: string) => text.trim().split(/\r?\n/).length;
    expect(rows(readFileSync(out, 'utf8'))).toBe(rows(readFileSync(input, 'utf8')));
    expect(res.stderr).not.toMatch(/ExperimentalWarning|^\s+at /m);
  });

  it('judges a disposable domain from its embedded list', async () => {
    const res = run([
      'verify',
      'someone@mailinator.com',
      '--local',
      '--json',
      '--dns-server',
      `127.0.0.1:${await closedPort()}`,
    ]);
    expect(res.status, res.stderr).toBe(5);
    expect(JSON.parse(res.stdout)).toMatchObject([{ status: 'risky', reason: 'disposable' }]);
  });

  it('registers on the built-in sandbox and shows the account', () => {
    const reg = run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], 'a long password');
    expect(reg.status, reg.stderr).toBe(0);
    const me = run(['me', '--json', 'email']);
    expect(me.status, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ada@example.com' });
  });

  it('answers a copy of a paid list from the verdict cache, paying only for its new address', async () => {
    const sandbox = await startSandbox({ port: 0, plan: 'unlimited' });
    // The sandbox answers in this process: the executable is awaited, never run synchronously.
    const runAsync = (args: string[], input = '') =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(exe, args, {
          cwd: join(dir, 'empty'),
          env: { ...env, MAILCLEAN_DATA_DIR: join(dir, 'paid'), MAILCLEAN_CLEAN_URL: sandbox.url },
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d));
        child.stdin.end(input);
        child.on('close', (status) => resolve({ status, stderr }));
      });
    try {
      const lines = Array.from({ length: 300 }, (_, i) => `person${i}@example${i % 7}.com`);
      writeFileSync(join(dir, 'paid.csv'), `email\n${lines.join('\n')}\n`);
      writeFileSync(join(dir, 'copy.csv'), `email\n${lines.join('\n')}\nnew@example1.com\n`);
      const args = ['--yes', '--no-precheck', '--clean-url', sandbox.url];
      const reg = await runAsync(
        ['register', '--service', 'clean', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'],
        'a long password',
      );
      expect(reg.status, reg.stderr).toBe(0);
      const first = await runAsync(['clean', join(dir, 'paid.csv'), '-o', join(dir, 'paid-out.csv'), ...args]);
      expect(first.status, first.stderr).toBe(0);
      expect(sandbox.stats().addressesCharged).toBe(300);
      const copy = await runAsync(['clean', join(dir, 'copy.csv'), '-o', join(dir, 'copy-out.csv'), ...args]);
      expect(copy.status, copy.stderr).toBe(0);
      expect(copy.stderr).toMatch(/300 addresses answered .* come from the cache/);
      expect(sandbox.stats().addressesCharged).toBe(301);
      const verdicts = (file: string) =>
        readFileSync(join(dir, file), 'utf8')
          .trim()
          .split('\n')
          .slice(1, 301)
          .map((row) => row.split(',').slice(0, 4).join());
      expect(verdicts('copy-out.csv')).toEqual(verdicts('paid-out.csv'));
    } finally {
      await sandbox.close();
    }
  });
});
