// The review's hold on the terminal: raw keys one at a time (Node's own readline decodes them), a screen of its own
// (the alternate screen, so the shell's lines come back after), and both given back however the review ends.
import { emitKeypressEvents } from 'node:readline';
import type { IOStreams } from '../../io/streams.js';
import { marksAsCodes } from '../../io/streams.js';

export interface Key {
  /** What was typed (a letter, a pasted character); empty for a key that types nothing. */
  text: string;
  /** readline's name of the key: `return`, `escape`, `backspace`, `a`… */
  name: string;
  ctrl: boolean;
}

/** Ctrl-C and Ctrl-D arrive as keys in raw mode; a signal or the input's end stand for them. */
export const STOP: Key = { text: '', name: 'stop', ctrl: true };

const ENTER_SCREEN = '\u001b[?1049h\u001b[?25l';
const LEAVE_SCREEN = '\u001b[?25h\u001b[?1049l';

export class Terminal {
  private readonly queued: Key[] = [];
  private waiting: ((key: Key) => void) | undefined;
  private readonly onKey = (text: string | undefined, key: { name?: string; ctrl?: boolean } | undefined) => {
    const stop = key?.ctrl && (key.name === 'c' || key.name === 'd');
    this.push(stop ? STOP : { text: key?.ctrl ? '' : (text ?? ''), name: key?.name ?? text ?? '', ctrl: !!key?.ctrl });
  };
  private readonly onStop = () => this.push(STOP);

  constructor(private readonly io: IOStreams) {}

  get width(): number {
    return this.io.stdout.columns ?? 80;
  }

  get height(): number {
    return (this.io.stdout as { rows?: number }).rows ?? 24;
  }

  open(onResize: () => void): void {
    const { stdin, stdout, signals } = this.io;
    emitKeypressEvents(stdin);
    stdin.setRawMode?.(true);
    stdin.on('keypress', this.onKey);
    stdin.on('end', this.onStop);
    stdin.resume();
    signals.stop.addEventListener('abort', this.onStop);
    stdout.on('resize', onResize);
    this.resize = onResize;
    stdout.write(ENTER_SCREEN);
  }

  private resize: (() => void) | undefined;

  close(): void {
    const { stdin, stdout, signals } = this.io;
    stdin.off('keypress', this.onKey);
    stdin.off('end', this.onStop);
    stdin.setRawMode?.(false);
    stdin.pause();
    signals.stop.removeEventListener('abort', this.onStop);
    if (this.resize) stdout.off('resize', this.resize);
    stdout.write(LEAVE_SCREEN);
  }

  /** The lines drawn from the top, each cleared to its end; the cursor shown after the last while text is typed. */
  draw(lines: readonly string[], cursor: boolean): void {
    const body = lines.map((line) => `${marksAsCodes(line)}\u001b[K`).join('\r\n');
    this.io.stdout.write(`\u001b[H${body}\u001b[J${cursor ? '\u001b[?25h' : '\u001b[?25l'}`);
  }

  next(): Promise<Key> {
    const key = this.queued.shift();
    if (key !== undefined) return Promise.resolve(key);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  private push(key: Key): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(key);
    else this.queued.push(key);
  }
}
