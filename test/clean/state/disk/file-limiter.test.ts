import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../../../src/clean/state/disk/file-limiter.js';
import { FakeClock } from '../../../helpers/clock.js';

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
  /** A state file of its own, in a directory removed after the test. */
  const newStatePath = () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    return join(dir, 'acct.json');
  };

  it('never admits more than N in any window, over months of windows', async () => {
    const clock = new FakeClock();
    const rate = { requests: 50, windowMs: 300_000 };
    const limiter = new SlidingWindowLimiter({ rate, clock, statePath: newStatePath() });
    const sends: number[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5_000; i++) {
      limiter.release(await limiter.acquire());
      sends.push(clock.now());
      // Irregular gaps between requests, sometimes bursts.
      clock.time += random() < 0.7 ? 0 : Math.floor(random() * 20_000);
    }
    expect(maxInAnyWindow(sends, rate.windowMs)).toBe(50);
    // Throughput stays close to the limit: 5,000 requests need at least 99 windows.
    const span = sends.at(-1)! - sends[0]!;
    expect(span / rate.windowMs).toBeLessThan(99 * 1.1);
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
        limiter.release(await limiter.acquire());
        sends.push(clock.now());
      }
    }
    expect(maxInAnyWindow(sends, rate.windowMs)).toBe(5);
    // Without the shared state each run would have started with a free window.
    expect(sends.at(-1)! - sends[0]!).toBeGreaterThanOrEqual(5 * rate.windowMs);
  });

  it('waits no longer than the window requires after the answers came back', async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter({
      rate: { requests: 2, windowMs: 1_000 },
      clock,
      statePath: newStatePath(),
      marginMs: 10,
    });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    expect([a.waitedMs, b.waitedMs]).toEqual([0, 0]);
    clock.time += 200; // the first answer takes 200 ms
    limiter.release(a);
    limiter.release(b);
    const start = Date.UTC(2026, 0, 1);
    expect((await limiter.acquire()).waitedMs).toBe(1_010);
    expect(clock.now() - start).toBe(1_210);
  });

  it('keeps a margin of 0.1% of a short window after the answers (5 ms of 5 s), and 1 s of a 5-minute one', async () => {
    for (const [windowMs, margin] of [
      [5_000, 5],
      [2_000, 5],
      [60_000, 60],
      [300_000, 1_000],
    ] as const) {
      const clock = new FakeClock();
      const limiter = new SlidingWindowLimiter({ rate: { requests: 3, windowMs }, clock, statePath: newStatePath() });
      const booked = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
      clock.time += 20; // the answers take 20 ms
      for (const booking of booked) limiter.release(booking);
      expect((await limiter.acquire()).waitedMs).toBe(windowMs + margin);
    }
  });

  it('acquires waiting at once take turns: each looks at the state file when its slot frees, not at every slot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const rate = { requests: 6, windowMs: 1_000 };
    const limiter = new SlidingWindowLimiter({ rate, clock, statePath: join(dir, 'acct.json'), marginMs: 0 });
    const first = await Promise.all(Array.from({ length: 6 }, () => limiter.acquire()));
    // A window's answers 10 ms apart: its slots free 10 ms apart, a window later.
    for (const booking of first) {
      clock.time += 10;
      limiter.release(booking);
    }
    const start = clock.now();
    // Six places wait at once on that full window. The fake clock moves by each sleep, so a place that slept for a
    // slot another one took would show as time: one after the other, each sleeps once, for its own slot.
    const waits: number[] = [];
    const bookings = await Promise.all(
      Array.from({ length: 6 }, () => limiter.acquire(undefined, (ms) => waits.push(ms))),
    );
    // The last slot frees a window after the last answer, which came as this wait began.
    expect(clock.now() - start).toBe(1_000);
    expect(waits).toEqual([950, 10, 10, 10, 10, 10]);
    // Each place's wait counts its time in line.
    expect(bookings.map((b) => b.waitedMs)).toEqual([950, 960, 970, 980, 990, 1_000]);
  });

  it('holds a slot while its request is in flight, however slow the answer', async () => {
    const clock = new FakeClock();
    const limiter = new SlidingWindowLimiter({
      rate: { requests: 1, windowMs: 1_000 },
      clock,
      statePath: newStatePath(),
      marginMs: 0,
      pendingMs: 60_000,
    });
    const slow = await limiter.acquire();
    // The second booking cannot happen until the first request ends, plus a window.
    clock.time += 5_000;
    expect(limiter.currentWait()).toBeGreaterThan(0);
    limiter.release(slow);
    expect(limiter.currentWait()).toBe(1_000);
  });

  it("a send's end released later reaches the state file with the next booking, or a moment later on its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const limiter = (requests: number, file: string) =>
      new SlidingWindowLimiter({
        rate: { requests, windowMs: 1_000 },
        clock,
        statePath: join(dir, file),
        marginMs: 0,
        pendingMs: 30_000,
      });
    const run = limiter(2, 'a.json');
    run.releaseLater(await run.acquire());
    // The run that released it sees the end at once.
    expect(run.currentWait()).toBe(0);
    await run.acquire();
    // That booking wrote the first send's end: another run holds its slot one window, not the request timeout.
    expect(limiter(2, 'a.json').currentWait()).toBe(1_000);

    const alone = limiter(1, 'b.json');
    alone.releaseLater(await alone.acquire());
    // No booking follows: until the end is written on its own, other runs see the send in flight (a longer hold).
    const other = limiter(1, 'b.json');
    expect(other.currentWait()).toBe(31_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(other.currentWait()).toBe(1_000);

    // A run that ends writes what it kept: `flush`.
    const last = limiter(1, 'c.json');
    last.releaseLater(await last.acquire());
    last.flush();
    expect(limiter(1, 'c.json').currentWait()).toBe(1_000);
  });

  it("an ETA between bookings goes by this run's last look at the state file; an estimate reads it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const statePath = join(dir, 'acct.json');
    const rate = { requests: 2, windowMs: 1_000 };
    const run = new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0 });
    const first = await run.acquire();
    await run.acquire();
    clock.time += 200;
    run.releaseLater(first);
    // Its own end counts at once: the first slot frees a window after that answer.
    expect(run.timeToSend(1)).toBe(1_000);
    // The ETA (asked at every answer) does not read the file; an estimate does (a directory in the way now).
    rmSync(statePath);
    mkdirSync(statePath);
    expect(run.timeToSend(1)).toBe(1_000);
    await expect(run.estimate(1)).rejects.toThrow(/cannot keep the rate limiter's state/);
  });

  it('a send left in flight by a killed run holds its slot for the request timeout, then frees', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const statePath = join(dir, 'acct.json');
    const rate = { requests: 1, windowMs: 1_000 };
    await new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0, pendingMs: 30_000 }).acquire(); // never released
    const next = new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0, pendingMs: 30_000 });
    expect(next.currentWait()).toBe(31_000);
  });

  it('send times in the future (the clock was stepped back) hold a slot for one window at most', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'limiter-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const statePath = join(dir, 'state.json');
    const farFuture = clock.now() + 30 * 86_400_000;
    writeFileSync(statePath, JSON.stringify({ sends: [{ id: 'x', at: farFuture, done: farFuture }] }));
    const limiter = new SlidingWindowLimiter({ rate: { requests: 1, windowMs: 1_000 }, clock, statePath, marginMs: 0 });
    const start = clock.now();
    await limiter.acquire();
    expect(clock.now() - start).toBeLessThanOrEqual(1_000);
  });

  it("another run's answer a moment ahead of this clock holds its slot in full (read under the lock, not clamped)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailclean-limiter-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    const clock = new FakeClock(1_000_000);
    const rate = { requests: 1, windowMs: 4_000 };
    // Another process finished a send 300 ms "after" this one read its clock: what a wait for the lock looks like.
    writeFileSync(
      statePath,
      JSON.stringify({ sends: [{ id: 'other', at: clock.now() - 100, done: clock.now() + 300 }] }),
    );
    const limiter = new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 40 });
    // The slot frees one window (and the margin) after that answer, not after this clock's now.
    expect(limiter.currentWait()).toBe(300 + 4_000 + 40);
    // A time far ahead (the clock was stepped back) still holds one window at most.
    writeFileSync(
      statePath,
      JSON.stringify({ sends: [{ id: 'other', at: clock.now(), done: clock.now() + 3_600_000 }] }),
    );
    expect(limiter.currentWait()).toBe(4_000 + 40);
  });

  it('rewrites its state file in place, reads the first line of one a killed run left half cut, and an old one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailclean-limiter-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    const clock = new FakeClock(1_000_000);
    const rate = { requests: 2, windowMs: 1_000 };
    // A look that books nothing (a dry run's estimate) makes no file.
    expect(new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0 }).currentWait()).toBe(0);
    expect(existsSync(statePath)).toBe(false);
    // As an earlier mailclean wrote it (renamed into place, no line end): one send answered now holds one slot.
    writeFileSync(statePath, JSON.stringify({ sends: [{ id: 'old', at: clock.now(), done: clock.now() }] }));
    const inode = statSync(statePath).ino;
    const limiter = new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0 });
    await limiter.acquire();
    expect(limiter.currentWait()).toBe(1_000);
    // The same file, not one renamed over it (which cost ext4 a write-out of the new file each turn).
    expect(statSync(statePath).ino).toBe(inode);
    const written = readFileSync(statePath, 'utf8');
    expect(written.endsWith('\n')).toBe(true);
    expect((JSON.parse(written) as { sends: unknown[] }).sends).toHaveLength(2);
    // Killed between writing a shorter state and cutting the file: the new line, then the old one's tail.
    const shorter = JSON.stringify({ sends: [{ id: 'kept', at: clock.now(), done: clock.now() }] });
    writeFileSync(statePath, `${shorter}\n${written.slice(shorter.length + 1)}`);
    expect(new SlidingWindowLimiter({ rate, clock, statePath, marginMs: 0 }).currentWait()).toBe(0);
    await limiter.acquire();
    expect(limiter.currentWait()).toBe(1_000);
    // Written over a longer text, the file is cut to the new line.
    const now = readFileSync(statePath, 'utf8');
    expect(now.indexOf('\n')).toBe(now.length - 1);
  });

  it('four processes booking at once through one state file lose no booking (the lock admits one at a time)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailclean-limiter-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    const built = pathToFileURL(
      join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'clean', 'state', 'disk', 'file-limiter.js'),
    ).href;
    const clock = pathToFileURL(join(import.meta.dirname, '..', '..', '..', '..', 'dist', 'clock.js')).href;
    // A limit never reached: every booking is written at once, and each stays in the file (in flight, unanswered).
    const script = `
      import { SlidingWindowLimiter } from ${JSON.stringify(built)};
      import { realClock } from ${JSON.stringify(clock)};
      const limiter = new SlidingWindowLimiter({ rate: { requests: 1e6, windowMs: 60_000 }, clock: realClock, statePath: ${JSON.stringify(statePath)} });
      for (let i = 0; i < 150; i++) await limiter.acquire();`;
    const children = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] }),
    );
    const codes = await Promise.all(children.map(async (child) => (await once(child, 'exit'))[0]));
    expect(codes).toEqual([0, 0, 0, 0]);
    const { sends } = JSON.parse(readFileSync(statePath, 'utf8')) as { sends: Array<{ id: string }> };
    expect(new Set(sends.map((send) => send.id)).size).toBe(600);
  }, 60_000);
});
