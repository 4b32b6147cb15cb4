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
  /** Extra spacing against clock granularity between us and the server. */
  marginMs?: number;
  /** How long a send whose end was never recorded (a killed run) may still be arriving: the request timeout. */
  pendingMs?: number;
}

/** One booked send: when it was booked, and when its answer (or failure) came back. */
interface Send {
  id: string;
  at: number;
  done?: number;
}

export interface Booking {
  id: string;
  waitedMs: number;
}

/**
 * At most N sends in any window of W, whatever the server's window alignment (unlike a bucket that
 * refills continuously, which can let 2N through one server window). The server counts a request when it
 * arrives, which is somewhere between our booking and the answer, so a send holds its slot until W after
 * its answer came back: then no delay on the way can squeeze N+1 arrivals into one of the server's windows.
 */
export class SlidingWindowLimiter {
  private readonly span: number;
  private readonly pendingMs: number;
  private readonly pollMs: number;
  private memory: Send[] = [];
  private counter = 0;

  constructor(private readonly opts: LimiterOptions) {
    const margin = opts.marginMs ?? Math.min(1_000, Math.max(25, opts.rate.windowMs * 0.01));
    this.span = opts.rate.windowMs + margin;
    this.pendingMs = opts.pendingMs ?? 30_000;
    this.pollMs = Math.max(20, Math.min(1_000, opts.rate.windowMs / 50));
    if (opts.statePath) mkdirSync(dirname(opts.statePath), { recursive: true, mode: 0o700 });
  }

  /** Waits for a free slot and books it; `release` must follow when the request has ended. */
  async acquire(signal?: AbortSignal): Promise<Booking> {
    let waitedMs = 0;
    const id = `${process.pid}-${Date.now().toString(36)}-${this.counter++}`;
    for (;;) {
      const wait = this.tryBook(id);
      if (wait === 0) return { id, waitedMs };
      // A slot held by a request still in flight frees when it ends: look again soon rather than sleep it
      // out, but not so often that waiting out a long window costs CPU (other runs' releases are only seen
      // by looking).
      const nap = Math.min(wait, this.pollMs);
      waitedMs += nap;
      await this.opts.clock.sleep(nap, signal);
    }
  }

  /** Marks the booked send as ended (answered or failed) now. */
  release(booking: Booking): void {
    const now = this.opts.clock.now();
    this.withState((sends) => {
      const send = sends.find((s) => s.id === booking.id);
      if (send) send.done = now;
      return send !== undefined;
    });
  }

  /** The wait before a slot frees up now, without booking (for ETAs and --dry-run). */
  currentWait(): number {
    return this.waitFor(this.withState(() => false), this.opts.clock.now());
  }

  /**
   * How long until `requests` more sends could all have started, if each were answered at once: slots free in
   * the order they expire, and each new send holds its slot for one window.
   */
  timeToSend(requests: number): number {
    if (requests <= 0) return 0;
    const now = this.opts.clock.now();
    const holding = this.withState(() => false)
      .map((s) => this.holdsUntil(s, now))
      .filter((until) => until > now);
    const limit = this.opts.rate.requests;
    const free = Math.max(0, limit - holding.length);
    if (requests <= free) return 0;
    const expiries = [...holding, ...Array.from({ length: free }, () => now + this.span)].sort((a, b) => a - b).slice(-limit);
    const waiting = requests - free - 1;
    return expiries[waiting % limit]! + Math.floor(waiting / limit) * this.span - now;
  }

  private tryBook(id: string): number {
    let wait = 0;
    this.withState((sends) => {
      const now = this.opts.clock.now();
      wait = this.waitFor(sends, now);
      if (wait === 0) sends.push({ id, at: now });
      return wait === 0;
    });
    return wait;
  }

  /** Until when a send holds its slot: W after it ended, or, still in flight, as if it could end any moment. */
  private holdsUntil(send: Send, now: number): number {
    if (send.done !== undefined) return send.done + this.span;
    return Math.max(now, send.at + this.pendingMs) + this.span;
  }

  private waitFor(sends: Send[], now: number): number {
    const holding = sends.map((s) => this.holdsUntil(s, now)).filter((until) => until > now).sort((a, b) => a - b);
    if (holding.length < this.opts.rate.requests) return 0;
    return Math.max(1, holding[holding.length - this.opts.rate.requests]! - now);
  }

  /**
   * Reads the send times and, when `change` altered them, writes them back, under a lock file so concurrent
   * runs book in turn.
   */
  private withState(change: (sends: Send[]) => boolean): Send[] {
    const path = this.opts.statePath;
    const now = this.opts.clock.now();
    if (!path) {
      change(this.memory);
      this.memory = this.prune(this.memory, now);
      return this.memory;
    }
    const unlock = lock(`${path}.lock`);
    try {
      const sends = readSends(path);
      if (!change(sends)) return sends;
      const kept = this.prune(sends, now);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ sends: kept }), { mode: 0o600 });
      renameSync(tmp, path);
      return kept;
    } finally {
      unlock();
    }
  }

  private prune(sends: Send[], now: number): Send[] {
    return sends.filter((s) => this.holdsUntil(s, now) > now);
  }
}

function readSends(path: string): Send[] {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { sends?: unknown };
    if (!Array.isArray(parsed.sends)) return [];
    return parsed.sends.filter(
      (s): s is Send => typeof s === 'object' && s !== null && typeof (s as Send).id === 'string' && typeof (s as Send).at === 'number',
    );
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
