import { closeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Clock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import { type Booking, limitMargin, type RateLimiter, timeToSendAfter } from '../rate-limiter.js';
import { createSends, LimiterStateError, lock, openSends, readSends, type Send, writeSends } from './limiter-file.js';

export interface LimiterOptions {
  rate: Rate;
  clock: Clock;
  /** Where the send times live, so consecutive (and concurrent) runs of one account share the limit. */
  statePath?: string;
  /** Extra spacing against the server's clock measuring W shorter than ours (see `limitMargin`). */
  marginMs?: number;
  /** How long a send whose end was never recorded (a killed run) may still be arriving: the request timeout. */
  pendingMs?: number;
}

/**
 * At most N sends in any window of W, whatever the server's alignment. The server counts a request when it arrives,
 * somewhere between booking and answer, so a send holds its slot until W after its answer.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly span: number;
  private readonly pendingMs: number;
  private readonly pollMs: number;
  private memory: Send[] = [];
  /** The sends as this run last read or wrote them: what an ETA between bookings goes by (see `timeToSend`). */
  private seen: Send[] = [];
  private counter = 0;
  /** Ends known here and not yet in the state file (a time, or undefined: unused, to forget); see `releaseLater`. */
  private readonly unwritten = new Map<string, number | undefined>();
  private writeLater?: NodeJS.Timeout;
  /** Settles when the last acquire asked for has booked (or given up): the next one's turn. */
  private line: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LimiterOptions) {
    const margin = opts.marginMs ?? limitMargin(opts.rate);
    this.span = opts.rate.windowMs + margin;
    this.pendingMs = opts.pendingMs ?? 30_000;
    this.pollMs = Math.max(20, Math.min(1_000, opts.rate.windowMs / 50));
    if (opts.statePath) {
      try {
        mkdirSync(dirname(opts.statePath), { recursive: true, mode: 0o700 });
      } catch (error) {
        throw new LimiterStateError(opts.statePath, error);
      }
    }
  }

  /**
   * Waits for a free slot and books it; `release` must follow. `onWait` hears once how long the wait looks. This
   * run's acquires take turns, so a freed slot wakes one of them, not all (each reading the file).
   */
  async acquire(signal?: AbortSignal, onWait?: (ms: number) => void): Promise<Booking> {
    const ahead = this.line;
    let leave!: () => void;
    this.line = new Promise<void>((resolve) => (leave = resolve));
    const queuedAt = this.opts.clock.now();
    try {
      await ahead;
      signal?.throwIfAborted();
      return await this.book(signal, onWait, this.opts.clock.now() - queuedAt);
    } finally {
      leave();
    }
  }

  private async book(signal?: AbortSignal, onWait?: (ms: number) => void, inLine = 0): Promise<Booking> {
    let waitedMs = inLine;
    const id = `${process.pid}-${Date.now().toString(36)}-${this.counter++}`;
    for (;;) {
      const { wait, known } = this.tryBook(id);
      if (wait === 0) return { id, waitedMs };
      if (waitedMs === inLine) onWait?.(wait);
      // A slot whose answer came back frees at a known time; one in flight frees when it ends, seen only by looking.
      const nap = known ? wait : Math.min(wait, this.pollMs);
      waitedMs += nap;
      await this.opts.clock.sleep(nap, signal);
    }
  }

  /** Marks the booked send as ended (answered or failed) now; one that never reached a server is forgotten. */
  release(booking: Booking, unused = false): void {
    this.unwritten.set(booking.id, unused ? undefined : this.opts.clock.now());
    this.withState(() => true);
  }

  /**
   * As `release`, but written with the next booking or RELEASE_WRITE_MS later: a file turn fewer a request. Other
   * runs meanwhile see the send in flight, which holds its slot longer, never shorter.
   */
  releaseLater(booking: Booking): void {
    this.unwritten.set(booking.id, this.opts.clock.now());
    if (!this.opts.statePath) this.withState(() => true);
    else
      this.writeLater ??= setTimeout(() => {
        try {
          this.flush();
        } catch {
          /* kept for the next booking or flush, which stop the run if the state still cannot be written */
        }
      }, RELEASE_WRITE_MS);
  }

  /** Writes the ends `releaseLater` kept; throws as `release` does when the state cannot be written. */
  flush(): void {
    clearTimeout(this.writeLater);
    this.writeLater = undefined;
    if (this.unwritten.size > 0) this.withState(() => true);
  }

  /** The wait before a slot frees up now, without booking (for ETAs and --dry-run). */
  currentWait(): number {
    return this.waitFor(
      this.withState(() => false),
      this.opts.clock.now(),
    );
  }

  /** timeToSend, from the state file as read now: what every run booked so far. */
  async estimate(requests: number): Promise<number> {
    this.withState(() => false);
    return this.timeToSend(requests);
  }

  /** From the sends as this run last saw them, with its own ends since: an ETA at every answer takes no file turn. */
  timeToSend(requests: number): number {
    const now = this.opts.clock.now();
    const holds = this.seen
      // An end kept as undefined is a send given back unused: it holds nothing.
      .filter((send) => !this.unwritten.has(send.id) || this.unwritten.get(send.id) !== undefined)
      .map((send) => this.holdsUntil({ ...send, done: this.unwritten.get(send.id) ?? send.done }, now));
    return timeToSendAfter(holds, requests, { rate: this.opts.rate, span: this.span, now });
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
    if (send.done !== undefined) return send.done + this.span;
    return Math.max(now, send.at + this.pendingMs) + this.span;
  }

  private waitFor(sends: Send[], now: number): number {
    return this.nextFree(sends, now).wait;
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

  /**
   * Reads the send times and, when `change` altered them, writes them back, under a lock file so concurrent
   * runs book in turn.
   */
  private withState(change: (sends: Send[]) => boolean): Send[] {
    const path = this.opts.statePath;
    if (!path) {
      this.applyReleases(this.memory);
      change(this.memory);
      this.memory = this.prune(this.memory, this.opts.clock.now());
      this.seen = this.memory;
      return this.memory;
    }
    let release: (() => void) | undefined;
    let fd: number | undefined;
    try {
      release = lock(`${path}.lock`);
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
    if (!this.opts.statePath) this.unwritten.clear();
    return ids;
  }

  private prune(sends: Send[], now: number): Send[] {
    return sends.filter((s) => this.holdsUntil(s, now) > now);
  }
}

/** How long a send's end may wait for the next booking before it is written on its own. */
const RELEASE_WRITE_MS = 25;
