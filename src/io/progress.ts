import { formatDuration, quantity } from '../quantities.js';
import type { Ora } from 'ora';
import type { OutputStream } from './io.js';

export interface ProgressState {
  phase: 'reading' | 'checking' | 'writing';
  rows: number;
  unique: number;
  toCheck: number;
  checked: number;
  spent: number;
  requests: number;
  waitingMs: number;
  etaMs?: number;
}

/**
 * Progress on stderr: on a terminal a live line redrawn in place; elsewhere a plain line every few
 * seconds, so CI logs show movement without a flood; with --quiet, nothing.
 */
export class ProgressReporter {
  private state: ProgressState = { phase: 'reading', rows: 0, unique: 0, toCheck: 0, checked: 0, spent: 0, requests: 0, waitingMs: 0 };
  private spinner?: Ora;
  private lastPlain: number;
  private waitSaid = false;

  constructor(
    private readonly stream: OutputStream,
    private readonly opts: { live: boolean; quiet: boolean; plainEveryMs?: number; now?: () => number },
  ) {
    // The first plain line comes after the first interval: a short run prints none.
    this.lastPlain = (opts.now ?? Date.now)();
  }

  async start(): Promise<void> {
    if (this.opts.quiet || !this.live) return;
    const { default: ora } = await import('ora');
    this.spinner = ora({ stream: this.stream as NodeJS.WritableStream, text: this.liveLine(), discardStdin: false }).start();
  }

  /**
   * A live line needs a terminal that knows its width: one that reports 0 columns (`script` without a size)
   * would make the spinner count every character as a line to clear, and flood the terminal.
   */
  private get live(): boolean {
    return this.opts.live && this.columns > 0;
  }

  private get columns(): number {
    return (this.stream as { columns?: number }).columns ?? 0;
  }

  /** Cut to the terminal's width, so redrawing never wraps (the spinner takes two columns). */
  private liveLine(): string {
    const line = this.line();
    const room = this.columns - 3;
    return line.length > room ? `${line.slice(0, Math.max(0, room - 1))}…` : line;
  }

  update(change: Partial<ProgressState>): void {
    Object.assign(this.state, change);
    if (change.waitingMs === 0) this.waitSaid = false;
    if (this.spinner) {
      this.spinner.text = this.liveLine();
      return;
    }
    if (this.opts.quiet || this.live) return;
    const now = (this.opts.now ?? Date.now)();
    if (now - this.lastPlain >= (this.opts.plainEveryMs ?? 5_000)) {
      this.lastPlain = now;
      this.stream.write(`${this.line()}\n`);
    }
  }

  /**
   * A wait for the rate limit begins. A live line shows it; without one, a wait of seconds or more is said at
   * once (once per wait), since the next plain line could be minutes away.
   */
  waiting(ms: number): void {
    this.update({ waitingMs: ms });
    if (this.spinner || this.opts.quiet || this.waitSaid || ms < 5_000) return;
    this.waitSaid = true;
    this.stream.write(`Waiting ${formatDuration(ms)} for the rate limit…\n`);
  }

  /** Clears the live line so the next message starts on a clean line. */
  stop(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /** Writes a message above the live line. */
  note(message: string): void {
    if (this.opts.quiet) return;
    if (this.spinner) {
      this.spinner.clear();
      this.stream.write(`${message}\n`);
      this.spinner.render();
      return;
    }
    this.stream.write(`${message}\n`);
  }

  line(): string {
    const s = this.state;
    const n = (x: number) => x.toLocaleString('en-US');
    if (s.phase === 'reading') return `Reading… ${quantity(s.rows, 'row')}`;
    if (s.phase === 'writing') return `Writing ${quantity(s.rows, 'row')}…`;
    const parts = [`Checking ${n(s.checked)}/${quantity(s.toCheck, 'address', 'addresses')}`, quantity(s.rows, 'row'), `${n(s.unique)} unique`, `${n(s.spent)} spent`, quantity(s.requests, 'request')];
    if (s.waitingMs > 0) parts.push(`waiting ${formatDuration(s.waitingMs)} for the rate limit`);
    if (s.etaMs !== undefined) parts.push(`ETA ${formatDuration(s.etaMs)}`);
    return parts.join(' · ');
  }
}

