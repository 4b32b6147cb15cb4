import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterEach, beforeEach, expect } from 'vitest';
import type { Clock } from '../../src/clock.js';
import type { IO } from '../../src/io/io.js';
import { type Signal, Signals } from '../../src/io/signals.js';
import { main } from '../../src/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Text piped to stdin (default: an empty, closed stdin). */
  stdin?: string;
  env?: Record<string, string | undefined>;
  /** Pretend stdin and stdout are terminals. */
  tty?: boolean;
}

/** A captured output stream; as a terminal (isTTY), it offers what a live line (ora) needs. */
export class Capture extends Writable {
  text = '';
  writes = 0;
  constructor(
    public isTTY?: boolean,
    public columns = 100,
  ) {
    super();
  }
  cursorTo(): boolean {
    return true;
  }
  moveCursor(): boolean {
    return true;
  }
  clearLine(): boolean {
    return true;
  }
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    this.writes++;
    done();
  }
}

/** A resolver address on loopback where nothing listens: DNS queries are refused at once, never leave the machine. */
export const NO_DNS = '127.0.0.1:9';

/** A home for one test: its own config and data directories, removed by cleanup(). */
export class TestHome {
  /**
   * What the CLI reads dates from: give the sandbox's FakeClock here too, so that the CLI and the service it talks to
   * never disagree on the date (the real clock when unset).
   */
  clock?: Clock;
  readonly dir = mkdtempSync(join(tmpdir(), 'mailclean-test-'));
  readonly configDir = join(this.dir, 'config');
  readonly dataDir = join(this.dir, 'data');
  private readonly running = new Set<Signals>();
  private readonly errors = new Set<Capture>();

  env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    // DNS on loopback only: a port nothing answers on, unless a test starts a DNS server (or says otherwise).
    return {
      MAILCLEAN_CONFIG_DIR: this.configDir,
      MAILCLEAN_DATA_DIR: this.dataDir,
      HOME: this.dir,
      PATH: process.env.PATH,
      MAILCLEAN_DNS_SERVERS: NO_DNS,
      ...extra,
    };
  }

  /** Runs the CLI in this process with fake streams, as a user would from a shell. */
  async run(argv: string[], opts: RunOptions = {}): Promise<CliResult> {
    const stdout = new Capture(opts.tty);
    const stderr = new Capture(opts.tty);
    const stdin = opts.stdin !== undefined ? Readable.from([Buffer.from(opts.stdin)]) : emptyStdin();
    (stdin as { isTTY?: boolean }).isTTY = opts.tty;
    const io: IO = {
      stdin,
      stdout,
      stderr,
      env: this.env(opts.env),
      cwd: this.dir,
      signals: new Signals(),
      clock: this.clock,
    };
    this.running.add(io.signals);
    this.errors.add(stderr);
    try {
      const code = await main(argv, io);
      return { code, stdout: stdout.text, stderr: stderr.text };
    } finally {
      this.running.delete(io.signals);
      this.errors.delete(stderr);
    }
  }

  /** What the commands still running in this home have written to stderr so far. */
  stderrSoFar(): string {
    return [...this.errors].map((c) => c.text).join('');
  }

  /** Delivers a signal to the commands running in this home. */
  signal(signal: Signal): void {
    for (const signals of this.running) signals.deliver(signal);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A failure as a user must see it: the exit code, one `error:` line (and hints), nothing on stdout, no stack trace. */
export function expectError(res: CliResult, code: number, line: string | RegExp): void {
  expect(res.code, res.stderr).toBe(code);
  const lines = res.stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('hint:'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  expect(res.stdout).toBe('');
}

function emptyStdin(): Readable {
  const s = new PassThrough();
  s.end();
  return s;
}

/** Call at the top of a file or describe block: each test gets a fresh TestHome, removed after it. */
export function useHome(): () => TestHome {
  let home: TestHome | undefined;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => {
    home?.cleanup();
    home = undefined;
  });
  return () => home!;
}
