// When the rate limiter's state cannot be written, the run ends with a clear error instead of spinning forever;
// a lock left by a dead or confused run does not block; send times from the future hold a slot one window at most.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox/server.js';
import { SlidingWindowLimiter } from '../../src/clean/limiter.js';
import { FakeClock } from '../helpers/clock.js';
import { TestHome } from '../helpers/cli.js';

function list(n: number): string {
  return `email\n${Array.from({ length: n }, (_, i) => `p${i}@example.com`).join('\n')}\n`;
}

/** Files the limiter would leave behind if it failed untidily. */
function leftovers(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock')) : [];
}

describe('the rate limiter state on disk', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let input: string;
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited' });
    home = new TestHome();
    const urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
    const reg = await home.run([...urls, 'register', '--service', 'clean', '--name', 'T', '--email', 'state@example.com', '--password-stdin'], { stdin: 'a long password' });
    expect(reg.code, reg.stderr).toBe(0);
    input = join(home.dir, 'list.csv');
    writeFileSync(input, list(120));
  });
  afterEach(async () => {
    await sandbox.close();
    home.cleanup();
  });

  /** The one limiter state file the account uses, made to exist so tests can put something in its way. */
  function statePath(): string {
    const dir = join(home.dataDir, 'limiter');
    mkdirSync(dir, { recursive: true });
    // One run creates it; its name is the account's key.
    return dir;
  }

  it('a directory where the state file should be: exit 1 naming the path, outputs written, journal intact', async () => {
    const first = await home.run(['clean', input, '-o', join(home.dir, 'first.csv'), '--max-spend', '50']);
    expect(first.code, first.stderr).toBe(3);
    const dir = statePath();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(state).toBeDefined();
    const path = join(dir, state!);
    execFileSync('rm', ['-f', path]);
    mkdirSync(path);

    const out = join(home.dir, 'out.csv');
    const res = await home.run(['clean', input, '-o', out, '--resume']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(new RegExp(`^error: cannot keep the rate limiter's state in ${path}: a directory is in the way$`, 'm'));
    expect(res.stderr).toMatch(/^hint: free space in the data directory/m);
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(121);
    expect(rows.filter((r) => r.includes(',valid,'))).toHaveLength(50);
    expect(leftovers(dir)).toEqual([]);
    expect(sandbox.stats().addressesCharged).toBe(50);
  });

  it('a lock file dated in the future, or left by a dead process, is taken over', async () => {
    const first = await home.run(['clean', input, '-o', join(home.dir, 'first.csv'), '--max-spend', '50']);
    expect(first.code, first.stderr).toBe(3);
    const dir = statePath();
    const [state] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const lock = join(dir, `${state}.lock`);
    writeFileSync(lock, `${process.pid}\n`);
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(lock, future, future);
    const res = await home.run(['clean', input, '-o', join(home.dir, 'out.csv'), '--resume']);
    expect(res.code, res.stderr).toBe(0);

    writeFileSync(lock, '2147483646\n'); // no such process
    const again = await home.run(['clean', input, '-o', join(home.dir, 'out2.csv'), '--restart']);
    expect(again.code, again.stderr).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a full disk under the limiter state: exit 1 saying so (needs root to mount a tmpfs)', async (ctx) => {
    const dir = statePath();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      ctx.skip('skipped: mounting a tmpfs needs root (a full disk cannot be made otherwise)');
    }
    try {
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k', 'count=100'], { stdio: 'ignore' });
      } catch {
        /* dd stops when the disk is full: that is the point */
      }
      const out = join(home.dir, 'out.csv');
      const res = await home.run(['clean', input, '-o', out]);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/cannot keep the rate limiter's state in .*: the disk is full/);
      expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(121);
      expect(leftovers(dir)).toEqual([]);
    } finally {
      execFileSync('umount', [dir], { stdio: 'ignore' });
    }
  });
});

describe('send times in the future (the clock was stepped back)', () => {
  it('hold a slot for one window at most', async () => {
    const home = new TestHome();
    try {
      const clock = new FakeClock();
      const path = join(home.dir, 'state.json');
      const farFuture = clock.now() + 30 * 86_400_000;
      writeFileSync(path, JSON.stringify({ sends: [{ id: 'x', at: farFuture, done: farFuture }] }));
      const limiter = new SlidingWindowLimiter({ rate: { requests: 1, windowMs: 1_000 }, clock, statePath: path, marginMs: 0 });
      const start = clock.now();
      await limiter.acquire();
      expect(clock.now() - start).toBeLessThanOrEqual(1_000);
    } finally {
      home.cleanup();
    }
  });
});
