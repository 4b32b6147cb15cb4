// Byte-level work on the list: spooling stdin or a pipe, a sample and fingerprint, UTF-8 checks, offsets to lines.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type Stats } from 'node:fs';
import { type FileHandle, mkdir, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { messageOf, UsageError } from '../../../errors.js';
import { processTag, removeLeftovers } from '../../../lock-files.js';
import { nulError, utf8Error } from './problems.js';
import { isBlankBytes } from './record-parser.js';
import { Utf8Checker } from './utf8.js';

export const CHUNK_BYTES = 1 << 20;
/** Bytes kept for sniffing: more than the record limit, so a long first row still fits. */
export const SAMPLE_BYTES = 2 << 20;

export interface ByteScan {
  size: number;
  fingerprint: string;
  sample: Buffer;
  sampleComplete: boolean;
  badUtf8: number;
  hasText: boolean;
  lastByte: number;
}

/** Read into two buffers in turn (csv-parse keeps a view of the last chunk), not a new one a chunk for the collector. */
export async function* fileChunks(file: string, start: number): AsyncGenerator<Buffer, void, undefined> {
  const handle = await open(file, 'r');
  try {
    const buffers = [Buffer.allocUnsafeSlow(CHUNK_BYTES), Buffer.allocUnsafeSlow(CHUNK_BYTES)];
    for (let position = start, turn = 0; ; turn ^= 1) {
      const buffer = buffers[turn]!;
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

const code = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;

const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'no such file (a part of the path is not a directory)',
  EISDIR: 'is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many levels of symbolic links',
};

export function fileError(displayName: string, err: unknown): UsageError {
  const c = code(err);
  const known = c === undefined ? undefined : READ_FAILURES[c];
  const reason = known ?? `cannot read the file (${c ?? messageOf(err)})`;
  return new UsageError(`${displayName}: ${reason}`);
}

export type FileKind = 'file' | 'stream';

export async function fileKind(path: string, displayName: string): Promise<FileKind> {
  let st: Stats;
  try {
    st = await stat(path);
  } catch (err) {
    throw fileError(displayName, err);
  }
  if (st.isDirectory()) throw new UsageError(`${displayName}: is a directory, not a file`);
  return st.isFile() ? 'file' : 'stream';
}

/** Removes the spools and spills of runs killed with SIGKILL: they hold whole lists. */
export function removeDeadSpools(spoolDir: string): void {
  removeLeftovers(
    spoolDir,
    (name) => /^(?:input|keys|rows|answers)-(\d+(?:~[0-9a-f]{8})?)-[0-9a-f]+\.spool$/.exec(name)?.[1],
  );
}

/** A new spool's path, named so that the spools of a killed run are removed by the next (removeDeadSpools). */
export function spoolPath(spoolDir: string): string {
  return join(spoolDir, `input-${processTag()}-${randomBytes(6).toString('hex')}.spool`);
}

export async function spool(
  source: NodeJS.ReadableStream,
  spoolDir: string,
  displayName: string,
  signal?: AbortSignal,
): Promise<string> {
  const reason = (err: unknown): string => code(err) ?? messageOf(err);
  // An error before the copy starts must not go unhandled.
  let early: unknown;
  const onEarly = (err: unknown): void => {
    early ??= err;
  };
  source.on('error', onEarly);
  try {
    try {
      await mkdir(spoolDir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new UsageError(`cannot create the spool directory ${spoolDir} (${reason(err)})`);
    }
    if (early !== undefined) throw new UsageError(`${displayName}: cannot read the input (${reason(early)})`);
    const file = spoolPath(spoolDir);
    try {
      await pipeline(source, createWriteStream(file, { flags: 'wx', mode: 0o600 }), { signal });
    } catch (err) {
      await rm(file, { force: true });
      if (signal?.aborted) throw signal.reason;
      const failure = early ?? err;
      // A decoding source (see decode.ts) fails with its own message.
      throw failure instanceof UsageError
        ? failure
        : new UsageError(`${displayName}: cannot read the input (${reason(failure)})`);
    }
    return file;
  } finally {
    source.removeListener('error', onEarly);
  }
}

export async function scanBytes(file: string, displayName: string): Promise<ByteScan> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    const sample = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
    let filled = 0;
    while (filled < sample.length) {
      const { bytesRead } = await handle.read(sample, filled, sample.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const last = Buffer.alloc(1);
    const lastRead = size > 0 ? (await handle.read(last, 0, 1, size - 1)).bytesRead : 0;
    const checker = new Utf8Checker();
    let badUtf8 = checker.push(sample.subarray(0, filled));
    const sampleComplete = filled === size;
    if (badUtf8 < 0 && sampleComplete) badUtf8 = checker.end();
    const bomLength = sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf ? 3 : 0;
    const hasText = !isBlankBytes(sample, bomLength, filled);
    const fingerprint = createHash('sha256').update(`${size}\n`).update(sample.subarray(0, filled)).digest('hex');
    return {
      size,
      fingerprint,
      sample: sample.subarray(0, filled),
      sampleComplete,
      badUtf8,
      // A file whose sample is blank is judged by its records instead.
      hasText: hasText || !sampleComplete,
      lastByte: lastRead === 1 ? last[0]! : -1,
    };
  } catch (err) {
    throw fileError(displayName, err);
  } finally {
    await handle?.close();
  }
}

export async function firstInvalidUtf8(file: string, displayName: string): Promise<number> {
  const checker = new Utf8Checker();
  try {
    for await (const chunk of fileChunks(file, 0)) {
      const bad = checker.push(chunk);
      if (bad >= 0) return bad;
    }
    return checker.end();
  } catch (err) {
    throw fileError(displayName, err);
  }
}

/** The list refused at byte `offset`: a NUL, or the start of a sequence that is not UTF-8. */
export async function badByteError(file: string, displayName: string, offset: number): Promise<UsageError> {
  let line = 1;
  let pos = 0;
  for await (const chunk of fileChunks(file, 0)) {
    const stop = Math.min(chunk.length, offset - pos);
    for (let i = chunk.indexOf(10); i !== -1 && i < stop; i = chunk.indexOf(10, i + 1)) line++;
    if (stop < chunk.length)
      return chunk[stop] === 0 ? nulError(displayName, line) : utf8Error(displayName, line, chunk[stop]!);
    pos += chunk.length;
  }
  return nulError(displayName, line);
}

/** A sample that looks like binary data: more than 10% control characters (a lone NUL is reported where it is). */
export function looksBinary(sample: Buffer): boolean {
  // A text file holds none of them: native Buffer.includes tells that faster than a pass of JavaScript.
  if (!CONTROL_BYTES.some((b) => sample.includes(b))) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const b = sample[i]!;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

const CONTROL_BYTES = [
  ...Array.from({ length: 0x20 }, (_, b) => b).filter((b) => ![0x09, 0x0a, 0x0c, 0x0d].includes(b)),
  0x7f,
];
