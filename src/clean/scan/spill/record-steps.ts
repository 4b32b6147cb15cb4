// Stepping from one key's record to a later one in the list's log (unique-keys.ts), where only some records' offsets
// are kept: records lie one after another within a chunk, whose unused end is zeros.
import { type ByteLog, CHUNK_BYTES } from './byte-log.js';
import { LENGTH_BYTES } from './key-records.js';

/**
 * Where the record `skip` records after the one at `at` starts in `log`: stepped through in the buffer that holds
 * them, where it can (a lookup steps over up to seven records), else a record at a time.
 */
export function recordAfter(log: ByteLog, at: number, skip: number): number {
  while (skip > 0) {
    const buffer = log.span(at);
    const { spanStart, spanEnd } = log;
    let i = spanStart;
    for (; skip > 0; skip--) {
      const next = i + LENGTH_BYTES + buffer.readUInt16LE(i);
      // The chunk's or the window's end, or a chunk's unused end (zeros): nextRecord says where to go on.
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

/** Where the record after the one at `at` starts: right after it, or at the next chunk when this one ends there. */
function nextRecord(log: ByteLog, at: number): number {
  const next = at + LENGTH_BYTES + log.uint16(at);
  const chunkEnd = next - (next % CHUNK_BYTES) + CHUNK_BYTES;
  // A chunk's unused end is zeros: a length of 0 (no key is empty) or no room for one means "go on in the next".
  if (next + LENGTH_BYTES > chunkEnd || log.uint16(next) === 0) return chunkEnd;
  return next;
}
