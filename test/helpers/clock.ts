import type { Clock } from '../../src/clean/limiter.js';

/** A clock whose sleeps move time forward at once, so years of rate windows pass in milliseconds. */
export class FakeClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  async sleep(ms: number): Promise<void> {
    this.time += ms;
    await Promise.resolve();
  }
}
