// The rate limit across runs, and a run killed with SIGKILL then resumed: a real process, real signals.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

function list(n: number, offset = 0): string {
  const lines = ['email,id'];
  for (let i = offset; i < offset + n; i++) lines.push(`user${i}@domain${i % 13}.com,${i}`);
  return `${lines.join('\n')}\n`;
}

const sandboxes = useSandboxes();
let home: TestHome;
beforeEach(() => {
  home = new TestHome();
});
afterEach(() => home.cleanup());

/** A sandbox limiting the clean route to `rate`, and an account on it saved in `home`'s profile. */
async function start(rate: { requests: number; windowMs: number }) {
  const sandbox = await sandboxes.start({ plan: 'unlimited', rate });
  await registered(home, sandbox);
  return sandbox;
}

describe('clean: limits', () => {
  it('two runs back to back share the limit: no 429, never more than the limit in any window', { timeout: 120_000 }, async () => {
    const sandbox = await start({ requests: 10, windowMs: 1_000 });
    // 210 requests' worth in all: 105 per run.
    const first = join(home.dir, 'a.csv');
    const second = join(home.dir, 'b.csv');
    writeFileSync(first, list(105 * 50));
    writeFileSync(second, list(105 * 50, 100_000));
    for (const input of [first, second]) {
      const res = await home.run(['clean', input, '-o', `${input}.out`, '--rate', '10/1s', '--concurrency', '8']);
      expect(res.code, res.stderr).toBe(0);
    }
    const stats = sandbox.stats();
    expect(stats.cleanRequests).toBe(210);
    expect(stats.rateLimited).toBe(0);
    expect(stats.maxArrivalsInAnyWindow).toBeLessThanOrEqual(10);
    expect(stats.maxArrivalsInAnyWindow).toBeGreaterThanOrEqual(9);
    expect(stats.largestRequest).toBe(50);
  });

  it('a run killed with SIGKILL resumes to the same output, paying at most for the batches in flight', { timeout: 120_000 }, async () => {
    const sandbox = await start({ requests: 5, windowMs: 1_000 });
    const input = join(home.dir, 'list.csv');
    const generated = 40 * 50;
    // Two more mailboxes: `dup@` and `DUP@` differ (local parts are case-sensitive); `dup@DOMAIN1.COM` is `dup@`.
    writeFileSync(input, list(generated) + 'dup@domain1.com,x\nDUP@domain1.com,y\ndup@DOMAIN1.COM,z\n');
    const unique = generated + 2;
    const out = join(home.dir, 'out.csv');
    const concurrency = 2;

    const child = spawn(process.execPath, [BIN, 'clean', input, '-o', out, '--rate', '5/1s', '--concurrency', String(concurrency)], {
      env: { ...process.env, ...home.env(), CI: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal ? -1 : _code)));
    // Kill it once it is well into the run.
    const deadline = Date.now() + 60_000;
    while (sandbox.stats().cleanRequests < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited, stderr).toBe(-1);
    const chargedAtKill = sandbox.stats().addressesCharged;
    expect(chargedAtKill).toBeGreaterThan(0);
    expect(chargedAtKill).toBeLessThan(unique);

    const resumed = await home.run(['clean', input, '-o', out, '--resume', '--rate', '5/1s']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming: \d+ addresses already checked/);
    const spent = sandbox.stats().addressesCharged;
    expect(spent).toBeGreaterThanOrEqual(unique);
    expect(spent).toBeLessThanOrEqual(unique + concurrency * 50);

    // The same output as an uninterrupted run (times aside).
    const reference = join(home.dir, 'reference.csv');
    const fresh = await home.run(['clean', input, '-o', reference, '--restart', '--rate', '50/1s']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const withoutTimes = (path: string) => (parse(readFileSync(path)) as string[][]).map((r) => r.slice(0, -1));
    expect(withoutTimes(out)).toEqual(withoutTimes(reference));
  });
});

describe('clean: Ctrl-C', () => {
  it('stops after the requests in flight with exit 130, and --resume pays for nothing twice', { timeout: 60_000 }, async () => {
    const sandbox = await start({ requests: 2, windowMs: 1_000 });
    const input = join(home.dir, 'list.csv');
    writeFileSync(input, list(20 * 50));
    const out = join(home.dir, 'out.csv');
    const running = home.run(['clean', input, '-o', out, '--rate', '2/1s', '--concurrency', '1']);
    while (sandbox.stats().cleanRequests < 3) await new Promise((r) => setTimeout(r, 10));
    home.signal('SIGINT');
    const stopped = await running;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/Interrupted: \d+ answers saved\. Run the same command with --resume to continue\./);
    const charged = sandbox.stats().addressesCharged;
    expect(charged).toBeLessThan(20 * 50);
    const resumed = await home.run(['clean', input, '-o', out, '--resume', '--rate', '50/1s']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(20 * 50);
  });
});
