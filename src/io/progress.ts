import type { Ora } from 'ora';
import type { RunProgress } from '../clean/run/events.js';
import { formatCount, formatDuration, quantity } from '../quantities.js';
import type { OutputStream } from './io.js';
import { forTerminal } from './streams.js';

/** Progress on stderr: a live line on a terminal; elsewhere a plain line every few seconds; with --quiet, nothing. */
export class ProgressReporter {
  private state: RunProgress = {
    phase: 'reading',
    rows: 0,
    unique: 0,
    toCheck: 0,
    checked: 0,
    spent: 0,
    requests: 0,
    waitingMs: 0,
  };
  private spinner?: Ora;
  /** Between start and stop: the live line is wanted (start waits for ora to load). */
  private wanted = false;
  private ticker?: NodeJS.Timeout;
  private lastPlain: number;
  private waitSaid = false;
  /** When the wait for the rate limit ends, and when the run is expected to end: counted down at each redraw. */
  private waitUntil?: number;
  private etaAt?: number;
  private readonly now: () => number;

  constructor(
    private readonly stream: OutputStream,
    private readonly opts: { live: boolean; quiet: boolean; plainEveryMs?: number; now?: () => number },
  ) {
    this.now = opts.now ?? Date.now;
    // The first plain line comes after the first interval: a short run prints none.
    this.lastPlain = this.now();
  }

  async start(): Promise<void> {
    if (this.opts.quiet || !this.live || this.spinner) return;
    this.wanted = true;
    const { default: ora } = await import('ora');
    // Stopped while ora was loading: nothing to draw.
    if (!this.wanted || this.spinner) return;
    this.spinner = ora({
      stream: this.stream as NodeJS.WritableStream,
      text: this.liveLine(),
      discardStdin: false,
      isEnabled: true,
    }).start();
    // Waits and the ETA count down every second even when nothing else happens.
    this.ticker = setInterval(() => this.refresh(), 1_000);
    this.ticker.unref();
  }

  refresh(): void {
    if (!this.spinner) return;
    this.spinner.text = this.liveLine();
    this.spinner.render();
  }

  /** A live line needs a terminal that knows its width: with 0 columns the spinner would flood it. */
  private get live(): boolean {
    return this.opts.live && (this.stream.columns ?? 0) > 0;
  }

  /** Fitted to the terminal's width, so redrawing never wraps (the spinner takes two columns). */
  private liveLine(): string {
    return this.line((this.stream.columns ?? 0) - 3);
  }

  update(change: Partial<RunProgress>): void {
    Object.assign(this.state, change);
    const now = this.now();
    if (change.waitingMs !== undefined) this.waitUntil = change.waitingMs > 0 ? now + change.waitingMs : undefined;
    if ('etaMs' in change) this.etaAt = change.etaMs === undefined ? undefined : now + change.etaMs;
    if (change.waitingMs === 0) this.waitSaid = false;
    if (this.spinner) {
      this.spinner.text = this.liveLine();
      return;
    }
    if (this.opts.quiet || this.live) return;
    if (now - this.lastPlain >= (this.opts.plainEveryMs ?? 5_000)) {
      this.lastPlain = now;
      this.stream.write(`${this.line()}\n`);
    }
  }

  /** A wait for the rate limit begins; without a live line, a long one is said at once (once per wait). */
  waiting(ms: number): void {
    this.update({ waitingMs: ms });
    if (this.spinner || this.opts.quiet || this.waitSaid || ms < 5_000) return;
    this.waitSaid = true;
    this.stream.write(`Waiting ${formatDuration(ms)} for the rate limit…\n`);
  }

  stop(): void {
    this.wanted = false;
    clearInterval(this.ticker);
    this.ticker = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /** Whether the live line is drawn now (a message must then go above it). */
  get drawing(): boolean {
    return this.spinner !== undefined;
  }

  /** Writes a message above the live line (escaped: see `forTerminal`). */
  note(message: string): void {
    if (this.opts.quiet) return;
    this.spinner?.clear();
    this.stream.write(`${forTerminal(message)}\n`);
    this.spinner?.render();
  }

  /** The line as it reads now, within `width` (lesser parts dropped first); the ETA is never below the wait. */
  line(width?: number): string {
    const s = this.state;
    const n = formatCount;
    if (s.phase === 'reading') return fitLine([{ text: `Reading… ${quantity(s.rows, 'row')}`, rank: 0 }], width);
    if (s.phase === 'writing') return fitLine([{ text: `Writing ${quantity(s.rows, 'row')}…`, rank: 0 }], width);
    const now = this.now();
    const waitLeft = this.waitUntil !== undefined ? Math.max(0, this.waitUntil - now) : 0;
    const etaLeft = this.etaAt !== undefined ? Math.max(waitLeft, this.etaAt - now) : undefined;
    const parts: Part[] = [
      {
        text: `Checking ${n(s.checked)}/${quantity(s.toCheck, 'address', 'addresses')}`,
        rank: 0,
        short: `Checking ${n(s.checked)}/${n(s.toCheck)}`,
      },
      { text: quantity(s.rows, 'row'), rank: 5 },
      { text: `${n(s.unique)} unique`, rank: 6 },
      { text: `${n(s.spent)} spent`, rank: 3 },
      { text: quantity(s.requests, 'request'), rank: 4 },
    ];
    if (waitLeft > 0)
      parts.push({
        text: `waiting ${formatDuration(waitLeft)} for the rate limit`,
        rank: 1,
        short: `rate limit ${formatDuration(waitLeft)}`,
      });
    if (etaLeft !== undefined) parts.push({ text: `ETA ${formatDuration(etaLeft)}`, rank: 2 });
    return fitLine(parts, width);
  }
}

interface Part {
  text: string;
  /** 0 is kept longest. */
  rank: number;
  /** What it says when the line is tight. */
  short?: string;
}

/** Parts joined by " · " within `width`: lesser parts go first, then the rest say it shorter, then the line is cut. */
function fitLine(parts: Part[], width?: number): string {
  const kept = [...parts];
  const join = (short: boolean) => kept.map((p) => (short ? (p.short ?? p.text) : p.text)).join(' · ');
  if (width === undefined) return join(false);
  const dropWorst = (above: number) => {
    const worst = kept.reduce((w, part, i) => (part.rank > kept[w]!.rank ? i : w), 0);
    if (kept[worst]!.rank <= above) return false;
    kept.splice(worst, 1);
    return true;
  };
  while (join(false).length > width && dropWorst(2));
  if (join(false).length <= width) return join(false);
  while (join(true).length > width && dropWorst(0));
  const line = join(true);
  return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
}
