// Three lists cleaned at once by three processes under one account's limit, on a machine kept busy: the service
// never sees more than the limit in any window (0 x 429), whatever the delays on the way.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const RATE = { requests: 8, windowMs: 2_000 };

describe('three runs at once under one limit, on a loaded machine', () => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  let burners: ChildProcess[] = [];
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => {
    for (const b of burners) b.kill('SIGKILL');
    burners = [];
    home.cleanup();
  });

  it('0 x 429, never more than 8 arrivals in any 2 s, every address answered once', { timeout: 120_000 }, async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: RATE });
    await registered(home, sandbox);
    // One busy loop per core: the runs and the service compete for CPU, so sends and answers are delayed.
    burners = cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const runs = [0, 1, 2].map((n) => {
      const input = join(home.dir, `list${n}.csv`);
      // 6 requests of 50 each per run: 18 in all, at least two full windows of waiting.
      writeFileSync(input, `email\n${Array.from({ length: 300 }, (_, i) => `r${n}-${i}@example.com`).join('\n')}\n`);
      return new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [BIN, 'clean', input, '-o', `${input}.out`, '--rate', '8/2s', '--concurrency', '4'],
          { env: { ...process.env, ...home.env() } },
        );
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    });
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const stats = sandbox.stats();
    expect(stats.rateLimited).toBe(0);
    expect(stats.maxArrivalsInAnyWindow).toBeLessThanOrEqual(RATE.requests);
    expect(stats.cleanRequests).toBe(18);
    expect(stats.addressesCharged).toBe(900);
  });
});
