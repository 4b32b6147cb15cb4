import type { Clock } from '../../src/clock.js';

/**
 * The one clock tests move by hand: `now` for code that reads the time (pass `clock.now` to the sandbox), and
 * sleeps that move time forward at once, so years of rate windows pass in milliseconds.
 */
export class FakeClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  readonly now = (): number => this.time;
  async sleep(ms: number): Promise<void> {
    this.time += ms;
    await Promise.resolve();
  }
  advance(ms: number): void {
    this.time += ms;
  }
  set(iso: string): void {
    this.time = Date.parse(iso);
  }
}
