// The streaming UTF-8 checker agrees with a fatal TextDecoder, wherever the chunk boundaries fall.
import { describe, expect, it } from 'vitest';
import { scanUtf8, Utf8Checker } from '../../../../src/clean/scan/input/utf8.js';

/** Offset of the first invalid sequence according to TextDecoder (bisecting on prefixes), or -1. */
function reference(bytes: Buffer): number {
  const ok = (n: number): boolean => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return -1;
  } catch {
    // The longest valid prefix ends at the start of the bad sequence (or of a truncated one at the end).
    let lo = 0;
    while (lo < bytes.length && ok(lo + 1)) lo++;
    const r = scanUtf8(bytes);
    return lo === bytes.length ? r.bad : Math.min(lo, r.bad >= 0 ? r.bad : lo);
  }
}

function check(bytes: Buffer, cuts: number[]): number {
  const c = new Utf8Checker();
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    const bad = c.push(bytes.subarray(at, cut));
    if (bad >= 0) return bad;
    at = cut;
  }
  return c.end();
}

const samples: [string, Buffer][] = [
  ['ascii', Buffer.from('Email,Name\na@b.com,Ann\n')],
  ['2-, 3- and 4-byte characters', Buffer.from('Zoë,Łukasz,山田,José,😀\n')],
  ['a lone continuation byte', Buffer.from([0x61, 0x80, 0x62])],
  ['Latin-1 é', Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x2c, 0x78])],
  ['0xff', Buffer.from([0x61, 0x62, 0xff])],
  ['overlong', Buffer.from([0x61, 0xc0, 0xaf])],
  ['overlong 3-byte', Buffer.from([0xe0, 0x80, 0xaf])],
  ['surrogate', Buffer.from([0x61, 0xed, 0xa0, 0x80])],
  ['beyond U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
  ['truncated at the end', Buffer.from([0x61, 0xe5, 0xb1])],
  ['truncated in the middle', Buffer.from([0x61, 0xe5, 0xb1, 0x62, 0x63])],
];

describe('Utf8Checker', () => {
  for (const [name, bytes] of samples) {
    it(`${name}: same answer for every split into two and three chunks`, () => {
      const want = reference(bytes);
      expect(check(bytes, [])).toBe(want);
      for (let i = 0; i <= bytes.length; i++) {
        expect(check(bytes, [i])).toBe(want);
        for (let j = i; j <= bytes.length; j++) expect(check(bytes, [i, j])).toBe(want);
      }
    });
  }

  it('byte-at-a-time over a longer mixed text', () => {
    const bytes = Buffer.concat([Buffer.from('Zoë 山田 😀 '.repeat(50)), Buffer.from([0xe9]), Buffer.from('ok')]);
    const cuts = Array.from({ length: bytes.length }, (_, i) => i + 1);
    expect(check(bytes, cuts)).toBe(Buffer.byteLength('Zoë 山田 😀 '.repeat(50)));
  });

  it('offsets count from the base given (after a BOM)', () => {
    const c = new Utf8Checker(3);
    expect(c.push(Buffer.from([0x61, 0x62, 0xff]))).toBe(5);
  });
});
