import { mkdirSync, openSync, closeSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Rate } from '../config/rate.js';

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export interface LimiterOptions {
  rate: Rate;
  clock: Clock;
  /** Where the send times live, so consecutive (and concurrent) runs of one account share the limit. */
  statePath?: string;
  /** Extra spacing so that network delay cannot squeeze N+1 arrivals into the server's window. */
  marginMs?: number;
}

/**
 * At most N sends in any window of W: a send may happen only once the N-th most recent send is W old.
 * This holds whatever the server's window alignment, unlike a bucket that refills continuously, which
 * can let 2N through one server window.
 */
export class SlidingWindowLimiter {
  private readonly span: number;
  private memory: number[] = [];

  constructor(private readonly opts: LimiterOptions) {
    const margin = opts.marginMs ?? Math.min(1_000, Math.max(25, opts.rate.windowMs * 0.02));
    this.span = opts.rate.windowMs + margin;
    if (opts.statePath) mkdirSync(dirname(opts.statePath), { recursive: true, mode: 0o700 });
  }

  /** Waits for a free slot and books it; returns how long it waited. */
  async acquire(signal?: AbortSignal): Promise<number> {
    let waited = 0;
    for (;;) {
      const wait = this.tryBook();
      if (wait === 0) return waited;
      waited += wait;
      await this.opts.clock.sleep(wait, signal);
    }
  }

  /** The wait before a slot frees up now, without booking (for ETAs and --dry-run). */
  currentWait(): number {
    const sends = this.withState((s) => s);
    return this.waitFor(sends, this.opts.clock.now());
  }

  private tryBook(): number {
    let wait = 0;
    this.withState((sends) => {
      const now = this.opts.clock.now();
      wait = this.waitFor(sends, now);
      if (wait === 0) sends.push(now);
      return sends;
    });
    return wait;
  }

  private waitFor(sends: number[], now: number): number {
    const recent = sends.filter((t) => t > now - this.span);
    if (recent.length < this.opts.rate.requests) return 0;
    const oldest = recent[recent.length - this.opts.rate.requests]!;
    return Math.max(1, oldest + this.span - now);
  }

  /** Reads, changes and writes the send times under a lock file, so concurrent runs book in turn. */
  private withState(change: (sends: number[]) => number[]): number[] {
    const path = this.opts.statePath;
    if (!path) {
      this.memory = prune(change(this.memory), this.opts.clock.now() - this.span);
      return this.memory;
    }
    const unlock = lock(`${path}.lock`);
    try {
      const sends = prune(change(readSends(path)), this.opts.clock.now() - this.span);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ sends }), { mode: 0o600 });
      renameSync(tmp, path);
      return sends;
    } finally {
      unlock();
    }
  }
}

function prune(sends: number[], before: number): number[] {
  return sends.filter((t) => t > before).sort((a, b) => a - b);
}

function readSends(path: string): number[] {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { sends?: unknown };
    return Array.isArray(parsed.sends) ? parsed.sends.filter((t): t is number => typeof t === 'number') : [];
  } catch {
    return [];
  }
}

/** A lock file taken with O_EXCL; one left behind by a killed run is taken over after a few seconds. */
function lock(path: string): () => void {
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      return () => {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(path).mtimeMs > 5_000) unlinkSync(path);
      } catch {
        /* released meanwhile */
      }
      if (Date.now() - started > 30_000) throw new Error(`cannot lock ${path}`);
      // The lock is held for microseconds; spin briefly rather than turn this into async code.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}
