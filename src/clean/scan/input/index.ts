// The input adapter of `clean`: what the list is (openInput), then its records as often as needed (readRecordBatches).
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { UsageError } from '../../../errors.js';
import { bomEncoding, isUtf16, transcode } from './decode.js';
import { detect } from './detect.js';
import type { InputEncoding } from './encodings.js';
import {
  type ByteScan,
  fileKind,
  firstInvalidUtf8,
  looksBinary,
  removeDeadSpools,
  scanBytes,
  spool,
} from './source.js';
import { isOle, isZip, oleError } from './workbook/container.js';

export type { InputEncoding } from './encodings.js';
export type { InputLayout, InputRecord, WorkbookLayout } from './layout.js';
export type { ReadOptions } from './records.js';

import type { InputLayout } from './layout.js';

export { readRecordBatches } from './records.js';
export type { TypedCell } from './typed-cells.js';

export interface OpenInputOptions {
  /** A file path, or '-' for `stdin`. */
  path: string;
  stdin?: NodeJS.ReadableStream;
  /** What messages call what '-' reads (default `stdin`). */
  stdinName?: string;
  /** Where a spooled input and what passes the scan's memory budget are kept (private files, removed at the end). */
  spoolDir: string;
  /** By header name or 1-based number (default: detected). */
  column?: string;
  signal?: AbortSignal;
  /** --encoding; by default a BOM's, else UTF-8 if the whole input is valid UTF-8, else Windows-1252. */
  encoding?: InputEncoding;
  strict?: boolean;
  sheet?: string;
  /** A workbook's numbers and dates as stored, not as their formats show them (written as text). */
  rawValues?: boolean;
}

export async function openInput(opts: OpenInputOptions): Promise<InputLayout> {
  removeDeadSpools(opts.spoolDir);
  const displayName = opts.path === '-' ? (opts.stdinName ?? 'stdin') : opts.path;
  const spooled: string[] = [];
  const file = await readableTwice(opts, displayName, spooled);
  const cleanup = async (): Promise<void> => {
    for (const f of spooled) await rm(f, { force: true });
  };
  try {
    const original = await scanBytes(file, displayName);
    const strict = opts.strict === true;
    if (isZip(original.sample)) {
      const { openWorkbook } = await import('./workbook/open.js');
      const layout = await openWorkbook({ ...opts, file, displayName, strict, original, spooled });
      return { ...layout, cleanup };
    }
    if (isOle(original.sample)) throw await oleError(file, displayName);
    if (opts.sheet !== undefined) throw new UsageError(`--sheet: ${displayName} is not an Excel workbook (.xlsx)`);
    const encoding = opts.encoding ?? (await guessEncoding(file, displayName, original));
    const encodingGuessed = opts.encoding === undefined && encoding === 'windows-1252';
    // UTF-16 is judged once decoded; in the others, text and control bytes are the same bytes before and after.
    if (!isUtf16(encoding)) refuseNonText(original, displayName);
    const text = encoding === 'utf-8' ? file : await transcode(file, encoding, opts.spoolDir, displayName);
    if (text !== file) spooled.push(text);
    const scan = text === file ? original : await scanBytes(text, displayName);
    if (isUtf16(encoding)) refuseNonText(scan, displayName);
    const layout = await detect(text, displayName, scan, opts.column);
    // The journal and the size name the user's bytes, not the copy's.
    const { fingerprint, size } = original;
    return { ...layout, fingerprint, size, encoding, encodingGuessed, strict, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

async function readableTwice(opts: OpenInputOptions, displayName: string, spooled: string[]): Promise<string> {
  let file = opts.path;
  if (opts.path === '-') {
    if (!opts.stdin) throw new UsageError('no input: give a file, or a stream to read it from');
    file = await spool(opts.stdin, opts.spoolDir, displayName, opts.signal);
  }
  // A pipe (`<(cmd)`, /dev/stdin) can be read only once; the two passes need a file.
  else if ((await fileKind(opts.path, displayName)) === 'stream') {
    file = await spool(createReadStream(opts.path), opts.spoolDir, displayName, opts.signal);
  }
  if (file !== opts.path) spooled.push(file);
  return file;
}

async function guessEncoding(file: string, displayName: string, scan: ByteScan): Promise<InputEncoding> {
  const bom = bomEncoding(scan.sample);
  if (bom) return bom;
  if (scan.badUtf8 >= 0) return 'windows-1252';
  if (scan.sampleComplete) return 'utf-8';
  return (await firstInvalidUtf8(file, displayName)) >= 0 ? 'windows-1252' : 'utf-8';
}

// Messages about the whole input say line 1, so that every input error reads `file:line: ...`.
function refuseNonText(scan: ByteScan, displayName: string): void {
  const what = displayName === 'stdin' ? 'the input' : 'the file';
  if (scan.size === 0 || !scan.hasText) throw new UsageError(`${displayName}:1: ${what} is empty`);
  if (looksBinary(scan.sample))
    throw new UsageError(`${displayName}:1: this looks like a binary file, not CSV or text`);
}
