import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/clean/limiter.js';
import { FakeClock } from '../helpers/clock.js';

/** The most sends found in any window of `windowMs` (each window starting at a send). */
function maxInAnyWindow(sends: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0, j = 0; i < sends.length; i++) {
    while (sends[i]! - sends[j]! >= windowMs) j++;
    max = Math.max(max, i - j + 1);
  }
  return max;
}

describe('SlidingWindowLimiter', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('never admits more than N in any window, over a year of windows', async () => {
    const clock = new FakeClock();
    const rate = { requests: 50, windowMs: 300_000 };
    const limiter = new SlidingWindowLimiter({ rate, clock });
    const sends: number[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      await limiter.acquire();
      sends.push(clock.now());
      // Irregular gaps between requests, sometimes bursts.
      clock.time += random() < 0.7 ? 0 : Math.floor(random() * 20_000);
    }
    expect(maxInAnyWindow(sends, rate.windowMs)).toBe(50);
    // Throughput stays close to the limit: 20,000 requests need at least 399 windows.
    const span = sends.at(-1)! - sends[0]!;
    expect(span / rate.windowMs).toBeLessThan(399 * 1.1);
  });

  it('shares its window across runs through the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const rate = { requests: 5, windowMs: 2_000 };
    const statePath = join(dir, 'acct.json');
    const sends: number[] = [];
    for (let run = 0; run < 4; run++) {
      // A new limiter per run, as a new process would build.
      const limiter = new SlidingWindowLimiter({ rate, clock, statePath });
      for (let i = 0; i < 7; i++) {
        await limiter.acquire();
        sends.push(clock.now());
      }
    }
    expect(maxInAnyWindow(sends, rate.windowMs)).toBe(5);
    // Without the shared state each run would have started with a free window.
    expect(sends.at(-1)! - sends[0]!).toBeGreaterThanOrEqual(5 * rate.windowMs);
  });

  it('waits no longer than the window requires', async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter({ rate: { requests: 2, windowMs: 1_000 }, clock, marginMs: 10 });
    expect(await limiter.acquire()).toBe(0);
    expect(await limiter.acquire()).toBe(0);
    expect(await limiter.acquire()).toBe(1_010);
  });
});
