import { once } from 'node:events';
import { chmodSync, copyFileSync, createWriteStream, fdatasync, unlinkSync, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { replaceWith, temporaryPath } from '../../atomic-write.js';
import { CliError, ExitCode, messageOf } from '../../errors.js';
import type { OutputPath } from './output-path.js';

const WRITE_AT = 1 << 16;

/** Text and bytes encoded into one staging buffer, written in large chunks: cheaper than concatenating strings. */
export class ChunkedWriter {
  private staging = Buffer.allocUnsafeSlow(2 * WRITE_AT);
  private used = 0;
  /** A write that failed after it was accepted (a full disk, /dev/full): thrown at the next flush. */
  private failure: Error | undefined;

  constructor(private readonly stream: Writable) {
    stream.on('error', (error) => (this.failure ??= error));
  }

  async write(text: string): Promise<void> {
    await this.push(text);
  }

  /** Like write, but a promise only when the text had to be flushed: a million rows need not await a million times. */
  push(text: string): Promise<void> | undefined {
    this.append(text);
    return this.flushIfFull();
  }

  append(text: string): void {
    // A UTF-16 unit never takes more than three bytes.
    this.makeRoom(text.length * 3);
    this.used += this.staging.write(text, this.used);
  }

  appendBytes(bytes: Uint8Array): void {
    this.makeRoom(bytes.length);
    this.staging.set(bytes, this.used);
    this.used += bytes.length;
  }

  flushIfFull(): Promise<void> | undefined {
    return this.used >= WRITE_AT ? this.flush() : undefined;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.used === 0) return;
    // The stream keeps what it is given until written: it gets a copy, and the staging buffer is used again.
    const chunk = Buffer.allocUnsafeSlow(this.used);
    this.staging.copy(chunk, 0, 0, this.used);
    this.used = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
    if (this.failure) throw this.failure;
  }

  /** Flushes the rest and ends the stream: a file written whole, not through AtomicFile (a workbook's spools). */
  async end(): Promise<void> {
    await this.flush();
    await ended(this.stream);
    if (this.failure) throw this.failure;
  }

  private makeRoom(bytes: number): void {
    if (this.used + bytes <= this.staging.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(2 * this.staging.length, this.used + bytes));
    this.staging.copy(larger, 0, 0, this.used);
    this.staging = larger;
  }
}

function ended(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large for the file system',
  EIO: 'an input/output error',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

export class OutputError extends CliError {
  override name = 'OutputError';

  constructor(given: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason = (code && WRITE_FAILURES[code]) ?? messageOf(cause);
    super(
      `cannot write ${given}: ${reason}${code && WRITE_FAILURES[code] ? ` (${code})` : ''}`,
      ExitCode.error,
      'nothing was left half-written; free the space or choose another place, then run the same command again (with --resume when it used the service: nothing is paid twice)',
    );
  }
}

/** What a file's stream takes before it asks to wait: with the default, rows were made and written by turns. */
const QUEUED_BYTES = 1 << 20;

export const FLUSH_BEHIND = { bytes: 16 * 2 ** 20, everyMs: 100 };

/** An output written beside its target and renamed into place when complete, keeping the replaced file's mode. */
export class AtomicFile {
  readonly stream: WriteStream;
  private readonly tmp?: string;
  private readonly flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private flushedTo = 0;
  flushesBehind = 0;

  constructor(
    readonly target: OutputPath,
    private readonly backup?: string,
  ) {
    if (target.kind === 'direct') {
      this.stream = createWriteStream(target.path, { flags: 'w', highWaterMark: QUEUED_BYTES });
      return;
    }
    this.tmp = temporaryPath(target.path);
    // A new file follows the umask; a replaced one gets its old mode at commit.
    this.stream = createWriteStream(this.tmp, {
      flags: 'wx',
      mode: target.mode === undefined ? 0o666 : 0o600,
      highWaterMark: QUEUED_BYTES,
    });
    this.flushTimer = setInterval(() => this.flushBehind(), FLUSH_BEHIND.everyMs).unref();
  }

  async ready(): Promise<void> {
    if (this.stream.pending) await once(this.stream, 'open');
  }

  async commit(): Promise<void> {
    clearInterval(this.flushTimer);
    // The stream closes its descriptor when it ends: no flush may be left running on it.
    await this.flushing;
    await ended(this.stream);
    if (!this.tmp) return;
    if (this.target.mode !== undefined) chmodSync(this.tmp, this.target.mode);
    if (this.backup) copyFileSync(this.target.path, this.backup);
    replaceWith(this.tmp, this.target.path);
  }

  abort(): void {
    clearInterval(this.flushTimer);
    this.stream.destroy();
    if (!this.tmp) return;
    try {
      unlinkSync(this.tmp);
    } catch {
      /* never created */
    }
  }

  /** Syncs behind the writing so commit's does not wait for all of a large output; its failure recurs there. */
  private flushBehind(): void {
    const { fd, bytesWritten } = this.stream as WriteStream & { fd?: number | null };
    if (this.flushing || typeof fd !== 'number' || bytesWritten - this.flushedTo < FLUSH_BEHIND.bytes) return;
    this.flushedTo = bytesWritten;
    this.flushesBehind++;
    this.flushing = new Promise((resolve) =>
      fdatasync(fd, () => {
        this.flushing = undefined;
        resolve();
      }),
    );
  }
}

export async function writeWhole(target: OutputPath, text: string): Promise<void> {
  const file = new AtomicFile(target);
  const writer = new ChunkedWriter(file.stream);
  try {
    await file.ready();
    await writer.write(text);
    await writer.flush();
    await file.commit();
  } catch (error) {
    file.abort();
    throw new OutputError(target.given, error);
  }
}
