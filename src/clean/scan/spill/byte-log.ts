import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../../errors.js';
import { processTag } from '../../../lock-files.js';

/** A record never straddles two chunks, so it is read with one view. */
export const CHUNK_BYTES = 1 << 20;

/** Reads of the part on disk go through a window: neighbouring records are one read. */
const WINDOW_BYTES = 8 << 10;
const HELD_FROM_DISK = 32 << 20;
const LENGTH_READ = 2;

export interface ByteLogOptions {
  /** Bytes kept in memory; older chunks spill to a file in `spoolDir`, made only then and removed by `close()`. */
  budget: number;
  spoolDir: string;
  /** Names the file, so that the one a run killed with SIGKILL leaves is recognised and removed by a later run. */
  name: string;
  /** What holdDiskPart reads whole, at most. */
  holdFromDisk?: number;
}

/** An append-only log of byte records, addressed by offset, whose older chunks spill to a file beyond the budget. */
export class ByteLog {
  /** Chunks from `firstInMemory` on; the last is being filled. */
  private chunks: Buffer[] = [];
  private firstInMemory = 0;
  private used = 0;
  private fd: number | undefined;
  private path: string | undefined;
  private window = Buffer.alloc(0);
  private windowStart = -1;
  private windowEnd = -1;
  /** Where the bytes asked of `bufferAt` start in the buffer it returned. */
  private at = 0;

  constructor(private readonly opts: ByteLogOptions) {}

  /** The offset the next record would get, counting the unused ends of chunks. */
  get size(): number {
    return (this.firstInMemory + this.chunks.length - 1) * CHUNK_BYTES + this.used;
  }

  get onDisk(): number {
    return this.firstInMemory * CHUNK_BYTES;
  }

  get spilled(): boolean {
    return this.fd !== undefined;
  }

  /** Room for `length` bytes in one chunk; `commit` follows. */
  reserve(length: number): { chunk: Buffer; at: number; offset: number } {
    if (length > CHUNK_BYTES) throw new RangeError(`a record of ${length} bytes is larger than a chunk`);
    if (this.chunks.length === 0 || this.used + length > CHUNK_BYTES) this.newChunk();
    const chunk = this.chunks[this.chunks.length - 1] as Buffer;
    return { chunk, at: this.used, offset: this.size };
  }

  commit(length: number): void {
    this.used += length;
  }

  uint16(offset: number): number {
    return this.bufferAt(offset, 2).readUInt16LE(this.at);
  }

  /** The buffer that holds the bytes from `offset` on, from `spanStart` up to `spanEnd` (at most its chunk's end). */
  span(offset: number): Buffer {
    const buffer = this.bufferAt(offset, LENGTH_READ);
    this.spanStart = this.at;
    // A window (a prefetch's) can hold several chunks: the span still ends with the chunk.
    const chunkEnd = offset - (offset % CHUNK_BYTES) + CHUNK_BYTES;
    this.spanEnd = buffer === this.window ? Math.min(this.windowEnd, chunkEnd) - this.windowStart : CHUNK_BYTES;
    return buffer;
  }

  spanStart = 0;
  spanEnd = 0;

  equals(offset: number, bytes: Buffer, length: number, start = 0): boolean {
    const buffer = this.bufferAt(offset, length);
    // An address is a few dozen bytes: a loop costs less than Buffer#compare's checks of its arguments.
    for (let i = 0, at = this.at; i < length; i++) if (buffer[at + i] !== bytes[start + i]) return false;
    return true;
  }

  /** Sets `at` where the bytes start in the buffer returned: no view is made, as lookups read a few bytes at a time. */
  private bufferAt(offset: number, length: number): Buffer {
    const index = Math.floor(offset / CHUNK_BYTES);
    if (index >= this.firstInMemory) {
      this.at = offset - index * CHUNK_BYTES;
      return this.chunks[index - this.firstInMemory] as Buffer;
    }
    if (offset < this.windowStart || offset + length > this.windowEnd) {
      const start = offset - (offset % WINDOW_BYTES);
      this.readWindow(start, Math.min(start + Math.max(WINDOW_BYTES, offset + length - start), this.onDisk));
    }
    this.at = offset - this.windowStart;
    return this.window;
  }

  /** Each up to its used end; chunks on disk are read into one reused buffer. */
  *chunksInOrder(): Generator<Buffer> {
    const buffer = this.firstInMemory > 0 ? Buffer.alloc(CHUNK_BYTES) : undefined;
    for (let index = 0; index < this.firstInMemory; index++) {
      readFully(this.fd as number, buffer as Buffer, CHUNK_BYTES, index * CHUNK_BYTES);
      yield buffer as Buffer;
    }
    for (let i = 0; i < this.chunks.length; i++) {
      const chunk = this.chunks[i] as Buffer;
      yield i === this.chunks.length - 1 ? chunk.subarray(0, this.used) : chunk;
    }
  }

  /** Reads the part on disk into memory once, if it is small enough, for lookups in no order; kept until `letGo`. */
  holdDiskPart(): void {
    const held = this.windowStart === 0 && this.windowEnd >= this.onDisk;
    if (!held && this.onDisk > 0 && this.onDisk <= (this.opts.holdFromDisk ?? HELD_FROM_DISK)) {
      this.readWindow(0, this.onDisk);
    }
  }

  letGo(): void {
    this.window = Buffer.alloc(0);
    this.windowStart = this.windowEnd = -1;
  }

  /** Reads of the part on disk so far. */
  reads = 0;

  /** Frees the memory and removes the file; the log is empty after. */
  close(): void {
    this.chunks = [];
    this.firstInMemory = 0;
    this.used = 0;
    if (this.fd !== undefined) closeSync(this.fd);
    if (this.path !== undefined) rmSync(this.path, { force: true });
    this.fd = undefined;
    this.path = undefined;
    this.windowStart = this.windowEnd = -1;
  }

  private newChunk(): void {
    // Full chunks past the budget go to disk, oldest first, at their own offset: the file is the log's beginning.
    let written: Buffer | undefined;
    while (this.chunks.length > 0 && this.chunks.length * CHUNK_BYTES >= this.opts.budget) {
      written = this.chunks.shift() as Buffer;
      const fd = this.file();
      try {
        writeFully(fd, written, this.firstInMemory * CHUNK_BYTES);
      } catch (error) {
        throw this.spillError(error);
      }
      this.firstInMemory++;
    }
    // A chunk written out is reused (zeroed: its unused end must read as zeros), not left to the garbage collector.
    this.chunks.push(written ? written.fill(0) : Buffer.alloc(CHUNK_BYTES));
    this.used = 0;
  }

  private file(): number {
    if (this.fd === undefined) {
      const path = join(
        this.opts.spoolDir,
        `${this.opts.name}-${processTag()}-${randomBytes(6).toString('hex')}.spool`,
      );
      try {
        mkdirSync(this.opts.spoolDir, { recursive: true, mode: 0o700 });
        this.fd = openSync(path, 'wx+', 0o600);
      } catch (error) {
        throw this.spillError(error);
      }
      this.path = path;
    }
    return this.fd;
  }

  /** A full disk or a directory that cannot be written: one line naming it, never a stack trace. */
  private spillError(error: unknown): UsageError {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return new UsageError(
      `cannot write to ${this.opts.spoolDir}, where a list this large keeps what does not fit in memory (${reason})`,
    );
  }

  /** Reads the bytes from `start` to `end` of the part on disk into the window, in one read. */
  private readWindow(start: number, end: number): void {
    if (this.window.length < end - start) this.window = Buffer.alloc(Math.max(end - start, 2 * this.window.length));
    readFully(this.fd as number, this.window, end - start, start);
    this.reads++;
    this.windowStart = start;
    this.windowEnd = end;
  }
}

function writeFully(fd: number, buffer: Buffer, position: number): void {
  for (let done = 0; done < buffer.length; ) done += writeSync(fd, buffer, done, buffer.length - done, position + done);
}

function readFully(fd: number, into: Buffer, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const n = readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error(`spill file ended at ${position + done}, ${length - done} bytes short`);
    done += n;
  }
}
