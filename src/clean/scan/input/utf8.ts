// Strict UTF-8 checking for streamed input: csv-parse would silently turn bad bytes into U+FFFD.
import { isUtf8 } from 'node:buffer';

function sequenceLength(lead: number): number {
  if (lead >= 0xf5) return 1;
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc2) return 2;
  return 1;
}

const isCont = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

export function scanUtf8(buf: Uint8Array, allowTail = false): { bad: number; tail: number } {
  const n = buf.length;
  let i = 0;
  while (i < n) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let len: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      len = 3;
      if (b === 0xe0) lo = 0xa0; // overlong
      if (b === 0xed) hi = 0x9f; // surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      len = 4;
      if (b === 0xf0) lo = 0x90; // overlong
      if (b === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return { bad: i, tail: n };
    for (let k = 1; k < len; k++) {
      const c = buf[i + k];
      if (c === undefined) return allowTail ? { bad: -1, tail: i } : { bad: i, tail: n };
      if (k === 1 ? c < lo || c > hi : !isCont(c)) return { bad: i, tail: n };
    }
    i += len;
  }
  return { bad: -1, tail: n };
}

export class Utf8Checker {
  private carry: Buffer | undefined;
  private next: number;

  constructor(base = 0) {
    this.next = base;
  }

  push(chunk: Buffer): number {
    const base = this.next;
    this.next += chunk.length;
    let start = 0;
    if (this.carry !== undefined) {
      const carry = this.carry;
      const carryAt = base - carry.length;
      const need = sequenceLength(carry[0]!) - carry.length;
      const take = Math.min(need, chunk.length);
      const joined = Buffer.concat([carry, chunk.subarray(0, take)]);
      const r = scanUtf8(joined, true);
      if (r.bad >= 0) return carryAt + r.bad;
      this.carry = undefined;
      if (r.tail < joined.length) {
        this.carry = joined; // still incomplete: the chunk was tiny
        return -1;
      }
      start = take;
    }
    // Cut an incomplete sequence off the end; it is checked with the next chunk.
    let cut = chunk.length;
    for (let k = 1; k <= 3 && k <= chunk.length - start; k++) {
      const b = chunk[chunk.length - k]!;
      if ((b & 0xc0) === 0x80) continue;
      if (b >= 0xc0 && sequenceLength(b) > k) cut = chunk.length - k;
      break;
    }
    const body = chunk.subarray(start, cut);
    if (!isUtf8(body)) {
      const r = scanUtf8(body);
      return base + start + Math.max(r.bad, 0);
    }
    if (cut < chunk.length) this.carry = Buffer.from(chunk.subarray(cut));
    return -1;
  }

  end(): number {
    if (this.carry === undefined) return -1;
    return this.next - this.carry.length;
  }
}
