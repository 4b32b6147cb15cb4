import { closeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import { holdBriefly } from '../../../lock-files.js';
import { type Booking, bookWhenFree, LimitTimings, type RateLimiter, timeToSendAfter } from '../rate-limiter.js';
import { createSends, LimiterStateError, openSends, readSends, type Send, writeSends } from './limiter-file.js';

export interface LimiterOptions {
  rate: Rate;
  clock: Clock;
  /** The file the runs of one account share the limit through. */
  statePath: string;
  marginMs?: number;
  pendingMs?: number;
}

/** The limit kept in a state file, booked in turn under a lock by the runs of this machine. */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly timings: LimitTimings;
  /** The sends as this run last read or wrote them: what an ETA between bookings goes by. */
  private seen: Send[] = [];
  private counter = 0;
  /** Ends known here and not yet in the state file (a time, or undefined: unused, to forget); see `releaseLater`. */
  private readonly unwritten = new Map<string, number | undefined>();
  private writeLater?: NodeJS.Timeout;
  /** Settles when the last acquire asked for has booked (or given up): the next one's turn. */
  private line: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LimiterOptions) {
    this.timings = new LimitTimings(opts.rate, opts.marginMs, opts.pendingMs);
    try {
      mkdirSync(dirname(opts.statePath), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new LimiterStateError(opts.statePath, error);
    }
  }

  /** This run's acquires take turns, so a freed slot wakes one of them, not all (each reading the file). */
  async acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Booking> {
    const ahead = this.line;
    let leave!: () => void;
    this.line = new Promise<void>((resolve) => (leave = resolve));
    const queuedAt = this.opts.clock.now();
    try {
      await ahead;
      signal?.throwIfAborted();
      const id = `${process.pid}-${Date.now().toString(36)}-${this.counter++}`;
      const { clock } = this.opts;
      const waited = clock.now() - queuedAt;
      const { pollMs } = this.timings;
      return { id, waitedMs: await bookWhenFree(() => this.tryBook(id), { clock, pollMs, signal, onWait, waited }) };
    } finally {
      leave();
    }
  }

  release(booking: Booking, unused = false): void {
    this.unwritten.set(booking.id, unused ? undefined : this.opts.clock.now());
    this.withState(() => true);
  }

  /** Written with the next booking or RELEASE_WRITE_MS later: a file turn fewer a request. */
  releaseLater(booking: Booking): void {
    this.unwritten.set(booking.id, this.opts.clock.now());
    this.writeLater ??= setTimeout(() => {
      try {
        this.flush();
      } catch {
        /* kept for the next booking or flush, which stop the run if the state still cannot be written */
      }
    }, RELEASE_WRITE_MS);
  }

  flush(): void {
    clearTimeout(this.writeLater);
    this.writeLater = undefined;
    if (this.unwritten.size > 0) this.withState(() => true);
  }

  /** The wait before a slot frees up now, without booking (for ETAs and --dry-run). */
  currentWait(): number {
    return this.nextFree(
      this.withState(() => false),
      this.opts.clock.now(),
    ).wait;
  }

  async estimate(requests: number): Promise<number> {
    this.withState(() => false);
    return this.timeToSend(requests);
  }

  /** From the sends as this run last saw them, with its own ends since: an ETA takes no file turn. */
  timeToSend(requests: number): number {
    const now = this.opts.clock.now();
    const holds = this.seen
      // An end kept as undefined is a send given back unused: it holds nothing.
      .filter((send) => !this.unwritten.has(send.id) || this.unwritten.get(send.id) !== undefined)
      .map((send) => this.holdsUntil({ ...send, done: this.unwritten.get(send.id) ?? send.done }, now));
    return timeToSendAfter(holds, requests, { rate: this.opts.rate, span: this.timings.span, now });
  }

  private tryBook(id: string): { wait: number; known: boolean } {
    let found = { wait: 0, known: true };
    this.withState((sends) => {
      const now = this.opts.clock.now();
      found = this.nextFree(sends, now);
      if (found.wait === 0) sends.push({ id, at: now });
      return found.wait === 0;
    });
    return found;
  }

  /** Until when a send holds its slot: W after it ended, or, still in flight, as if it could end any moment. */
  private holdsUntil(send: Send, now: number): number {
    if (send.done !== undefined) return send.done + this.timings.span;
    return Math.max(now, send.at + this.timings.pendingMs) + this.timings.span;
  }

  /** The wait before a slot frees, and whether its end is known (its answer came back) rather than guessed. */
  private nextFree(sends: Send[], now: number): { wait: number; known: boolean } {
    const holding = sends
      .map((s) => ({ until: this.holdsUntil(s, now), known: s.done !== undefined }))
      .filter((h) => h.until > now)
      .sort((a, b) => a.until - b.until);
    if (holding.length < this.opts.rate.requests) return { wait: 0, known: true };
    const first = holding[holding.length - this.opts.rate.requests]!;
    return { wait: Math.max(1, first.until - now), known: first.known };
  }

  /** Reads the send times and, when `change` altered them, writes them back, under a lock so runs book in turn. */
  private withState(change: (sends: Send[]) => boolean): Send[] {
    const path = this.opts.statePath;
    let release: (() => void) | undefined;
    let fd: number | undefined;
    try {
      release = holdBriefly(`${path}.lock`);
      fd = openSends(path);
      // The time is read once the lock is held: read before, other runs' fresh times could look like the future.
      const now = this.opts.clock.now();
      const { sends, clamped } = readSends(fd, now);
      const released = this.applyReleases(sends);
      this.seen = sends;
      // Clamped times are written back at once, or they would be read as "now" again and hold forever.
      if (!change(sends) && !clamped) return sends;
      const kept = this.prune(sends, now);
      this.seen = kept;
      // Not flushed: runs share it through the page cache, and a power cut that loses it loses the sends too.
      fd ??= createSends(path);
      writeSends(fd, kept);
      for (const id of released) this.unwritten.delete(id);
      return kept;
    } catch (error) {
      if (error instanceof LimiterStateError) throw error;
      throw new LimiterStateError(path, error);
    } finally {
      if (fd !== undefined) closeSync(fd);
      release?.();
    }
  }

  /** This run's ends not yet written, applied to `sends` as read; returns their ids. */
  private applyReleases(sends: Send[]): string[] {
    const ids = [...this.unwritten.keys()];
    for (const [id, done] of this.unwritten) {
      const at = sends.findIndex((s) => s.id === id);
      if (at < 0) continue;
      if (done === undefined) sends.splice(at, 1);
      else sends[at]!.done = done;
    }
    return ids;
  }

  private prune(sends: Send[], now: number): Send[] {
    return sends.filter((s) => this.holdsUntil(s, now) > now);
  }
}

/** How long a send's end may wait for the next booking before it is written on its own. */
const RELEASE_WRITE_MS = 25;
