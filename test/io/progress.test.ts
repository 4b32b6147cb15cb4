// The progress line on stderr: live on a terminal that knows its width, plain lines elsewhere.
import { describe, expect, it } from 'vitest';
import { ProgressReporter } from '../../src/io/progress.js';
import { FakeClock } from '../helpers/clock.js';
import { Capture } from '../helpers/cli.js';

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
});
