// The rate limit across runs, and Ctrl-C during a run: the CLI in-process against the sandbox on 127.0.0.1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

function list(n: number, offset = 0): string {
  const lines = ['email,id'];
  for (let i = offset; i < offset + n; i++) lines.push(`user${i}@domain${i % 13}.com,${i}`);
  return `${lines.join('\n')}\n`;
}

const sandboxes = useSandboxes();
const home = useHome();

/** A sandbox limiting the clean route to `rate`, and an account on it saved in `home`'s profile. */
async function start(rate: { requests: number; windowMs: number }) {
  const sandbox = await sandboxes.start({ plan: 'unlimited', rate });
  await registered(home(), sandbox);
  return sandbox;
}

describe('clean: limits', () => {
  it('two runs back to back share the limit: no 429, never more than the limit in any window', {
    timeout: 60_000,
  }, async () => {
    const sandbox = await start({ requests: 10, windowMs: 1_000 });
    // 25 requests per run: the first ends with 5 sends in its last window, which the second must count (started
    // afresh, it would send 10 more into that window).
    const first = join(home().dir, 'a.csv');
    const second = join(home().dir, 'b.csv');
    writeFileSync(first, list(25 * 50));
    writeFileSync(second, list(25 * 50, 100_000));
    for (const input of [first, second]) {
      const res = await home().run(['clean', input, '-o', `${input}.out`, '--rate', '10/1s', '--concurrency', '8']);
      expect(res.code, res.stderr).toBe(0);
    }
    const stats = sandbox.stats();
    expect(stats.cleanRequests).toBe(50);
    expect(stats.rateLimited).toBe(0);
    expect(stats.maxArrivalsInAnyWindow).toBeLessThanOrEqual(10);
    expect(stats.maxArrivalsInAnyWindow).toBeGreaterThanOrEqual(9);
    expect(stats.largestRequest).toBe(50);
  });
});

describe('clean: Ctrl-C', () => {
  it('stops after the requests in flight with exit 130, and --resume pays for nothing twice', {
    timeout: 60_000,
  }, async () => {
    // The run is slowed by its own --rate; the service's limit leaves room for the resumed run to go at once.
    const sandbox = await start({ requests: 50, windowMs: 1_000 });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(20 * 50));
    const out = join(home().dir, 'out.csv');
    const running = home().run(['clean', input, '-o', out, '--rate', '2/300ms', '--concurrency', '1']);
    while (sandbox.stats().cleanRequests < 3) await new Promise((r) => setTimeout(r, 10));
    home().signal('SIGINT');
    const stopped = await running;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/Interrupted: \d+ answers saved\. Run the same command with --resume to continue\./);
    const charged = sandbox.stats().addressesCharged;
    expect(charged).toBeLessThan(20 * 50);
    const resumed = await home().run(['clean', input, '-o', out, '--resume', '--rate', '50/1s']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(20 * 50);
  });
});
