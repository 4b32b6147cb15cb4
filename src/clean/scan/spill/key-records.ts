// How the list's keys lie in their log (unique-keys.ts): each key's UTF-8 after its length in two bytes
// (little-endian), one after another; a chunk's unused end is zeros, as no key is empty.
import { type ByteLog, CHUNK_BYTES } from './byte-log.js';

export const LENGTH_BYTES = 2;

/** Calls `visit` with each key of a part of the log (bytes[start, end)), in order; returns how many there were. */
export function eachKeyIn(part: Buffer, visit: (bytes: Buffer, start: number, end: number) => void): number {
  let keys = 0;
  for (let at = 0; at + LENGTH_BYTES <= part.length; keys++) {
    const length = part.readUInt16LE(at);
    if (length === 0) break;
    visit(part, at + LENGTH_BYTES, at + LENGTH_BYTES + length);
    at += LENGTH_BYTES + length;
  }
  return keys;
}

/** Where the record `skip` records after the one at `at` starts: stepped through in one buffer where it can. */
export function recordAfter(log: ByteLog, at: number, skip: number): number {
  while (skip > 0) {
    const buffer = log.span(at);
    const { spanStart, spanEnd } = log;
    let i = spanStart;
    for (; skip > 0; skip--) {
      const next = i + LENGTH_BYTES + buffer.readUInt16LE(i);
      // The chunk's or the window's end, or a chunk's unused end: nextRecord says where to go on.
      if (next + LENGTH_BYTES > spanEnd || (buffer[next] === 0 && buffer[next + 1] === 0)) break;
      i = next;
    }
    at += i - spanStart;
    if (skip > 0) {
      at = nextRecord(log, at);
      skip--;
    }
  }
  return at;
}

/** Right after the record at `at`, or at the next chunk when this one ends there. */
function nextRecord(log: ByteLog, at: number): number {
  const next = at + LENGTH_BYTES + log.uint16(at);
  const chunkEnd = next - (next % CHUNK_BYTES) + CHUNK_BYTES;
  if (next + LENGTH_BYTES > chunkEnd || log.uint16(next) === 0) return chunkEnd;
  return next;
}
