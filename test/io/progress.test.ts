// The progress line on stderr: live on a terminal that knows its width, plain lines elsewhere.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressReporter } from '../../src/io/progress.js';
import { Capture } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';

const Screen = class extends Capture {
  constructor(columns: number) {
    super(true, columns);
  }
};

describe('progress', () => {
  it('a terminal that reports 0 columns (script without a size) gets plain lines, not a flood of redraws', async () => {
    const screen = new Screen(0);
    const clock = new FakeClock(0);
    const progress = new ProgressReporter(screen, { live: true, quiet: false, now: clock.now });
    await progress.start();
    for (let i = 1; i <= 100; i++) {
      clock.advance(1_000);
      progress.update({ phase: 'checking', checked: i, toCheck: 100, rows: 100, unique: 100, requests: i });
    }
    progress.stop();
    expect(screen.writes).toBe(20); // one plain line every 5 s of the 100 s
    expect(screen.text).not.toContain('\u001b[');
  });

  it('on a terminal with a width, the live line is cut to fit', async () => {
    const screen = new Screen(40);
    const progress = new ProgressReporter(screen, { live: true, quiet: false });
    await progress.start();
    progress.update({ phase: 'checking', checked: 1, toCheck: 1_000, rows: 1_000, unique: 1_000, requests: 1 });
    expect(progress.line().length).toBeGreaterThan(40);
    progress.stop();
    const drawn = screen.text.split(/\r|\n|\u001b\[[0-9;?]*[A-Za-z]/).filter(Boolean);
    expect(Math.max(...drawn.map((l) => l.length))).toBeLessThanOrEqual(40);
  });

  it('counts read naturally: "1 request", "1 row"', () => {
    const progress = new ProgressReporter(new Screen(0), { live: false, quiet: false });
    progress.update({ phase: 'checking', checked: 0, toCheck: 1, rows: 1, unique: 1, requests: 1 });
    expect(progress.line()).toBe('Checking 0/1 address · 1 row · 1 unique · 0 spent · 1 request');
  });

  it('without a live line, a long wait for the rate limit is said at once, once per wait', () => {
    const screen = new Screen(0);
    const progress = new ProgressReporter(screen, { live: false, quiet: false, now: () => 0 });
    progress.waiting(2_000);
    expect(screen.text).toBe('');
    progress.waiting(298_000);
    progress.waiting(297_000);
    expect(screen.text).toBe('Waiting 4m 58s for the rate limit…\n');
    progress.update({ waitingMs: 0, checked: 50 });
    progress.waiting(60_000);
    expect(screen.text).toBe('Waiting 4m 58s for the rate limit…\nWaiting 1m for the rate limit…\n');
  });

  describe('during a wait for the rate limit', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const busy = {
      phase: 'checking',
      checked: 123_456,
      toCheck: 1_000_000,
      rows: 2_000_000,
      unique: 1_000_000,
      spent: 123_456,
      requests: 2_470,
    } as const;

    it('the live line counts the wait and the ETA down every second, with nothing else happening', async () => {
      vi.useFakeTimers();
      const clock = new FakeClock(0);
      const screen = new Screen(120);
      const progress = new ProgressReporter(screen, { live: true, quiet: false, now: clock.now });
      await progress.start();
      progress.update({ ...busy, etaMs: 600_000 });
      progress.waiting(300_000);
      clock.advance(61_000);
      vi.advanceTimersByTime(1_000);
      expect(screen.text).toContain('waiting 3m 59s for the rate limit · ETA 8m 59s');
      clock.advance(60_000);
      vi.advanceTimersByTime(1_000);
      expect(screen.text).toContain('waiting 2m 59s for the rate limit · ETA 7m 59s');
      // Every redraw fits the terminal.
      const drawn = screen.text.split(/\r|\n|\u001b\[[0-9;?]*[A-Za-z]/).filter(Boolean);
      expect(Math.max(...drawn.map((l) => l.length))).toBeLessThanOrEqual(120);
      progress.stop();
    });

    it('the ETA is never shorter than the wait still to come', () => {
      const clock = new FakeClock(0);
      const progress = new ProgressReporter(new Screen(0), { live: false, quiet: false, now: clock.now });
      progress.update({ ...busy, etaMs: 10_000 });
      progress.waiting(301_000);
      expect(progress.line()).toMatch(/waiting 5m 1s for the rate limit · ETA 5m 1s$/);
    });

    it('at 80 columns the progress, the wait and the ETA are kept; rows and unique give way', () => {
      const clock = new FakeClock(0);
      const progress = new ProgressReporter(new Screen(0), { live: false, quiet: false, now: clock.now });
      progress.update({ ...busy, etaMs: 3_600_000 });
      progress.waiting(299_000);
      const line = progress.line(80 - 3);
      expect(line.length).toBeLessThanOrEqual(77);
      expect(line).toBe('Checking 123,456/1,000,000 · rate limit 4m 59s · ETA 1h 0m');
      // With room, the lesser parts come back before the short forms are needed.
      expect(progress.line(100)).toBe(
        'Checking 123,456/1,000,000 addresses · 123,456 spent · waiting 4m 59s for the rate limit · ETA 1h 0m',
      );
    });
  });
});
