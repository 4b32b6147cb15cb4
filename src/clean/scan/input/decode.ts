// A list not in UTF-8 (Excel's UTF-16 "Unicode text", its Windows-1252 "CSV") is decoded once into a UTF-8 spool;
// line breaks survive, so messages' line numbers hold for the user's file.
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { UsageError } from '../../../errors.js';
import type { InputEncoding } from './encodings.js';
import { countNewlines } from './sniff.js';
import { CHUNK_BYTES, fileError, spool } from './source.js';

export const isUtf16 = (encoding: InputEncoding): boolean => encoding === 'utf-16le' || encoding === 'utf-16be';

export function bomEncoding(sample: Buffer): InputEncoding | undefined {
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be';
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf-8';
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** UTF-16 to text, refusing what a fatal TextDecoder would, but naming the line; a BOM stays a BOM. */
export class Utf16Decoder {
  private odd: Buffer | undefined;
  private high = '';
  private line = 1;

  constructor(
    private readonly bigEndian: boolean,
    private readonly displayName: string,
  ) {}

  decode(chunk: Buffer): string {
    const bytes = this.odd ? Buffer.concat([this.odd, chunk]) : chunk;
    const even = bytes.length - (bytes.length % 2);
    this.odd = even < bytes.length ? Buffer.from(bytes.subarray(even)) : undefined;
    const units = this.bigEndian ? Buffer.from(bytes.subarray(0, even)).swap16() : bytes.subarray(0, even);
    let text = this.high + units.toString('utf16le');
    this.high = '';
    // A pair split between chunks: keep its first half for the next one.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.high = text.slice(-1);
      text = text.slice(0, -1);
    }
    const bad = text.search(LONE_SURROGATE);
    if (bad >= 0) throw this.error(this.line + countNewlines(text.slice(0, bad)));
    this.line += countNewlines(text);
    return text;
  }

  end(): void {
    if (this.odd || this.high) throw this.error(this.line);
  }

  private error(line: number): UsageError {
    return new UsageError(
      `${this.displayName}:${line}: not valid UTF-16`,
      'the file is damaged or in another encoding: pass --encoding to choose one',
    );
  }
}

async function* decoded(file: string, encoding: InputEncoding, displayName: string): AsyncGenerator<string> {
  const utf16 = isUtf16(encoding) ? new Utf16Decoder(encoding === 'utf-16be', displayName) : undefined;
  // Every byte is a character in Windows-1252, so this cannot fail.
  const single = new TextDecoder('windows-1252');
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
      yield utf16 ? utf16.decode(chunk) : single.decode(chunk, { stream: true });
    }
  } catch (err) {
    throw err instanceof UsageError ? err : fileError(displayName, err);
  }
  utf16?.end();
}

export function transcode(
  file: string,
  encoding: InputEncoding,
  spoolDir: string,
  displayName: string,
): Promise<string> {
  return spool(Readable.from(decoded(file, encoding, displayName)), spoolDir, displayName);
}
