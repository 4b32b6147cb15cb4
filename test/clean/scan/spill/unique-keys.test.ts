// The scan's memory-bounded structures: the unique addresses (numbered, spilled past a budget, never two taken for
// one), each row's address number, and the verdicts by number. Budgets of 0 put everything but the newest chunk on
// disk, so the read-back paths are the ones tested.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBytes } from '../../../../src/clean/scan/spill/hash-bytes.js';
import { eachKeyIn } from '../../../../src/clean/scan/spill/key-records.js';
import { RowOrdinals } from '../../../../src/clean/scan/spill/row-ordinals.js';
import { UniqueKeys } from '../../../../src/clean/scan/spill/unique-keys.js';
import type { Verdict } from '../../../../src/clean/verdict/verdict.js';
import { VerdictTable } from '../../../../src/clean/verdict/verdict-table.js';
import { processTag } from '../../../../src/lock-files.js';
import { mulberry32 } from '../../../../src/sandbox/faults.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mailclean-spill-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Addresses of random lengths (a few near the longest), some non-ASCII, many repeated. */
function addresses(count: number, seed: number): string[] {
  const rand = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && rand() < 0.3) out.push(out[Math.floor(rand() * i)] as string);
    else {
      const local = `${'x'.repeat(Math.floor(rand() * (rand() < 0.01 ? 240 : 20)))}u${i}`;
      out.push(rand() < 0.1 ? `${local}@bücher${i % 7}.example` : `${local}@d${i % 1000}.test`);
    }
  }
  return out;
}

/** Keys as one buffer of UTF-8, and where each starts (as a journal's lines give them). */
function asBytes(asked: string[]) {
  const parts = asked.map((key) => Buffer.from(key));
  const starts = new Int32Array(parts.length + 1);
  parts.forEach((part, i) => (starts[i + 1] = (starts[i] as number) + part.length));
  return { bytes: Buffer.concat(parts), starts };
}

/** Two addresses with the same hash. */
function collidingPair(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `person${i}@example.com`;
    const bytes = Buffer.from(key);
    const hash = hashBytes(bytes, bytes.length);
    const earlier = seen.get(hash);
    if (earlier !== undefined) return [earlier, key];
    seen.set(hash, key);
  }
}

describe('UniqueKeys', () => {
  it('numbers addresses in order of first appearance, as a Set orders them, with most of them on disk', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir });
    const list = addresses(120_000, 7);
    const ordinals = list.map((key) => keys.add(key));
    const expected = [...new Set(list)];
    expect(keys.size).toBe(expected.length);
    expect(keys.spilled).toBe(true);
    expect([...keys]).toEqual(expected);
    // The same address always gets the same number, and the number is its place in the order.
    list.forEach((key, row) => expect(expected[ordinals[row] as number]).toBe(key));
    expect(keys.ordinal('nobody@nowhere.test')).toBe(-1);
    expect(keys.ordinal(expected[5] as string)).toBe(5);
    expect(keys.ordinal(expected[expected.length - 1] as string)).toBe(expected.length - 1);
    // As bytes, a part at a time (those from disk read into one buffer): the same keys in the same order.
    const asBytes: string[] = [];
    let parts = 0;
    for (const part of keys.keyParts()) {
      const listed = eachKeyIn(part, (bytes, start, end) => asBytes.push(bytes.toString('utf8', start, end)));
      expect(listed).toBeGreaterThan(0);
      parts++;
    }
    expect(parts).toBeGreaterThan(1);
    expect(asBytes).toEqual(expected);
  });

  it('finds keys in any order, the log on disk, equal hashes told apart', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir });
    const list = [...new Set(addresses(30_000, 11))];
    for (const key of list) keys.add(key);
    const [a, b] = collidingPair();
    keys.add(a);
    // Asked in reverse order, with addresses not in the list (one sharing a listed one's hash), and one twice.
    const asked = [...list].reverse().concat(b, 'nobody@nowhere.test', list[3] as string);
    const ordinals = new Map(list.map((key, ordinal) => [key, ordinal]));
    expect(asked.map((key) => keys.ordinal(key))).toEqual(asked.map((key) => ordinals.get(key) ?? -1));
    expect(keys.ordinal(b)).toBe(-1);
    expect(keys.ordinal(a)).toBe(list.length);
  });

  it.each([
    ['read from disk as asked', 0],
    ['held in memory', undefined],
  ])("finds keys given as bytes in the list's order (those on disk %s), as one at a time does", (_, holdFromDisk) => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir, holdFromDisk });
    const list = [...new Set(addresses(30_000, 13))];
    for (const key of list) keys.add(key);
    const [a, b] = collidingPair();
    keys.add(a);
    // In the list's order with gaps and strays (a journal's), and shuffled (a cache's key order).
    const inOrder = list.filter((_, i) => i % 50 !== 7).concat(b, 'nobody@nowhere.test', a, list[3] as string);
    const shuffled = [...inOrder].sort();
    for (const asked of [inOrder, shuffled]) {
      const expected = asked.map((key) => keys.ordinal(key));
      const { bytes, starts } = asBytes(asked);
      expect([...keys.ordinalsInOrder(bytes, starts)]).toEqual(expected);
    }
    keys.close();
  });

  it("holds the part on disk for lookups in key order (a cache's answers), where it is small enough", () => {
    const list = [...new Set(addresses(150_000, 17))];
    const rand = mulberry32(5);
    const asked = Array.from({ length: 8_000 }, () => list[Math.floor(rand() * list.length)] as string).sort();
    const ordinals = new Map(list.map((key, ordinal) => [key, ordinal]));
    // Two chunks on disk (2 MiB; the third is in memory): held under a limit of 4 MiB, read as asked under 1 MiB.
    for (const [limit, held] of [
      [4 << 20, true],
      [1 << 20, false],
    ] as const) {
      const keys = new UniqueKeys({ budget: 0, spoolDir: dir, holdFromDisk: limit });
      for (const key of list) keys.add(key);
      const before = keys.diskReads;
      keys.holdDiskPart();
      expect(asked.map((key) => keys.ordinal(key))).toEqual(asked.map((key) => ordinals.get(key)));
      if (held) expect(keys.diskReads - before).toBe(1);
      else expect(keys.diskReads - before).toBeGreaterThan(100);
      keys.close();
    }
  });

  it('finds keys on disk next to a chunk whose end is one byte too short for another key', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir, holdFromDisk: 0 });
    // Records of 100 bytes (a key of 98 and its length) up to 76 bytes short of a chunk (1 MiB), then one of 75:
    // the chunk ends with one unused byte, which a read across the chunk's end must not take for a length.
    const list: string[] = [];
    for (let chunk = 0; chunk < 3; chunk++) {
      for (let i = 0; i < 10_485; i++) list.push(`${String(chunk * 100_000 + i).padStart(10, '0')}@${'d'.repeat(87)}`);
      list.push(`${String(chunk).padStart(10, '0')}@${'e'.repeat(62)}`);
    }
    for (const key of list) keys.add(key);
    const asked = list.filter((_, i) => i % 3 === 0 || i % 10_486 > 10_470 || i % 10_486 < 16).sort();
    const ordinals = new Map(list.map((key, ordinal) => [key, ordinal]));
    expect(asked.map((key) => keys.ordinal(key))).toEqual(asked.map((key) => ordinals.get(key)));
    keys.close();
  });

  it('tells apart addresses whose hashes are equal, and those that differ only in case', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir });
    const [a, b] = collidingPair();
    expect(keys.add(a)).toBe(0);
    expect(keys.add(b)).toBe(1);
    expect(keys.add('Person0@example.com')).toBe(2);
    expect(keys.add('person0@example.com')).toBe(3);
    expect([keys.ordinal(a), keys.ordinal(b), keys.size]).toEqual([0, 1, 4]);
  });

  it('keeps what it spills private, and removes it when closed', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: join(dir, 'spool') });
    for (const key of addresses(80_000, 3)) keys.add(key);
    const files = readdirSync(join(dir, 'spool'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^keys-${processTag()}-[0-9a-f]+\\.spool$`));
    expect(statSync(join(dir, 'spool', files[0] as string)).mode & 0o777).toBe(0o600);
    keys.close();
    expect(readdirSync(join(dir, 'spool'))).toEqual([]);
  });

  it('says in one line where it could not write, rather than failing with a trace', () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, '');
    const keys = new UniqueKeys({ budget: 0, spoolDir: join(blocked, 'spool') });
    expect(() => {
      for (const key of addresses(80_000, 4)) keys.add(key);
    }).toThrow(
      new RegExp(
        `^cannot write to ${blocked}/spool, where a list this large keeps what does not fit in memory \\(ENOTDIR\\)$`,
      ),
    );
  });

  it('writes nothing to disk while the keys fit the budget', () => {
    const keys = new UniqueKeys({ budget: 32 << 20, spoolDir: join(dir, 'spool') });
    for (const key of addresses(50_000, 5)) keys.add(key);
    expect(keys.spilled).toBe(false);
    expect(() => readdirSync(join(dir, 'spool'))).toThrow(/ENOENT/);
  });
});

describe('RowOrdinals', () => {
  it('reads back every number in order, from disk and memory, and refuses to read past the end', () => {
    const rows = new RowOrdinals({ budget: 0, spoolDir: dir });
    const rand = mulberry32(11);
    const written = Array.from({ length: 700_001 }, () => Math.floor(rand() * 2 ** 31));
    for (const n of written) rows.push(n);
    const next = rows.reader();
    const read = written.map(() => next());
    expect(read).toEqual(written);
    expect(() => next()).toThrow(/more rows/);
    rows.close();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('VerdictTable', () => {
  const verdict = (status: string): Verdict => ({
    key: '',
    status,
    valid: status === 'valid',
    disposable: false,
    validDomain: true,
    reason: '',
    checkedAt: '2026-11-25T10:00:00.000Z',
  });

  it('gives each number its verdict, by number or by address, and counts the numbers that have one', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir });
    for (const key of ['a@x.test', 'b@x.test', 'c@x.test']) keys.add(key);
    const table = new VerdictTable(keys);
    const valid = verdict('valid');
    table.set(0, valid);
    table.set(2, valid);
    table.setKey('b@x.test', verdict('invalid'));
    table.setKey('not-in-the-list@x.test', verdict('invalid'));
    table.set(0, valid);
    expect([table.get(0)?.status, table.get(1)?.status, table.get(2)?.status, table.get(3)]).toEqual([
      'valid',
      'invalid',
      'valid',
      undefined,
    ]);
    expect(table.get(0)).toBe(table.get(2));
    expect(table.size).toBe(3);
  });
});

describe('UniqueKeys.dropIndex', () => {
  it('still lists the keys, keeps the count, and refuses lookups', () => {
    const keys = new UniqueKeys({ budget: 0, spoolDir: dir });
    const list = addresses(60_000, 9);
    for (const key of list) keys.add(key);
    const size = keys.size;
    keys.dropIndex();
    expect(keys.size).toBe(size);
    expect([...keys]).toEqual([...new Set(list)]);
    expect(() => keys.ordinal(list[0] as string)).toThrow(/index was dropped/);
  });
});
