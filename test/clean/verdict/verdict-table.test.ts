// The verdict table: each address's answer by its number, as a verdict but for its time and a time, whatever the
// count of distinct answers (a list answered in batches of 50 has one a batch).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UniqueKeys } from '../../../src/clean/scan/spill/unique-keys.js';
import { CodedColumn } from '../../../src/clean/verdict/coded-column.js';
import { IntTable } from '../../../src/clean/verdict/int-table.js';
import type { Verdict } from '../../../src/clean/verdict/verdict.js';
import { VerdictTable } from '../../../src/clean/verdict/verdict-table.js';

const spoolDir = mkdtempSync(join(tmpdir(), 'mailclean-verdict-table-'));
afterAll(() => rmSync(spoolDir, { recursive: true, force: true }));

const answer = (status: string, checkedAt: string, more: Partial<Verdict> = {}): Verdict => ({
  key: '',
  status,
  valid: status === 'valid',
  disposable: false,
  validDomain: true,
  reason: status === 'valid' ? '' : 'rejected',
  checkedAt,
  ...more,
});

function listOf(count: number): UniqueKeys {
  const keys = new UniqueKeys({ spoolDir, budget: 0 });
  for (let i = 0; i < count; i++) keys.add(`u${i}@example.com`);
  return keys;
}

describe('CodedColumn', () => {
  it('gives back what was set, across pages, past the distinct values a page codes and after overwrites', () => {
    const column = new CodedColumn();
    const expected = new Map<number, number>();
    // Page 0: a value every 50 entries (coded); page 1: a value an entry (past the codes: four bytes).
    for (let i = 0; i < 65_536; i++) expected.set(i, 1 + Math.floor(i / 50));
    for (let i = 65_536; i < 2 * 65_536; i += 3) expected.set(i, 100_000 + i);
    expected.set(300_000, 7);
    const order = [...expected.keys()].sort((a, b) => ((a * 7919) % 1009) - ((b * 7919) % 1009) || a - b);
    for (const i of order) column.set(i, expected.get(i) as number);
    for (const [i, value] of expected) expect(column.get(i)).toBe(value);
    expect(column.get(65_537)).toBe(0);
    expect(column.get(10_000_000)).toBe(0);
    column.set(65_536, 3);
    column.set(10, 99);
    expect([column.get(65_536), column.get(10), column.get(11)]).toEqual([3, 99, 1]);
  });
});

describe('IntTable', () => {
  it('finds every key it was given, as it grows: negative ones, and ones alike in their low bits', () => {
    const table = new IntTable();
    const expected = new Map<number, number>();
    // Times a second apart in ms share their low bits; offsets before the first time are negative.
    for (let i = -20_000; i < 50_000; i++) expected.set(i * 1000, 1 + (i & 0xffff));
    for (let i = 0; i < 5_000; i++) expected.set(2 ** 31 - 1 - i, 2 ** 32 - 1 - i);
    for (const [key, value] of expected) table.set(key, value);
    expect(table.size).toBe(expected.size);
    for (const [key, value] of expected) expect(table.get(key)).toBe(value);
    for (const absent of [1, -1, 999, 50_000_000, -(2 ** 31)]) expect(table.get(absent)).toBe(0);
    table.set(0, 42);
    expect([table.get(0), table.size]).toEqual([42, expected.size]);
  });
});

describe('VerdictTable', () => {
  it("holds each address's verdict with its own time, given in the verdict or beside it (epoch ms)", () => {
    const keys = listOf(300);
    const table = new VerdictTable(keys);
    const shared = answer('valid', '');
    // 300 addresses answered in six batches, each its own time: one verdict given for all, the time beside it.
    const base = Date.parse('2026-11-01T00:00:00.000Z');
    for (let i = 0; i < 300; i++)
      table.setKey(`u${i}@example.com`, shared, undefined, base + Math.floor(i / 50) * 1000);
    table.set(7, answer('invalid', 'Tue, 24 Nov 2026 10:00:00 GMT'));
    expect(table.size).toBe(300);
    expect(table.get(0)?.checkedAt).toBe('2026-11-01T00:00:00.000Z');
    expect(table.get(299)?.checkedAt).toBe('2026-11-01T00:00:05.000Z');
    expect(table.get(7)).toMatchObject({
      status: 'invalid',
      reason: 'rejected',
      checkedAt: 'Tue, 24 Nov 2026 10:00:00 GMT',
    });
    expect(table.get(8)).toMatchObject({ status: 'valid', valid: true, checkedAt: '2026-11-01T00:00:00.000Z' });
    // Neighbours of a batch share one object (the write pass makes its cells once).
    expect(table.get(9)).toBe(table.get(10));
    expect(table.get(300)).toBeUndefined();
    expect(table.has(299)).toBe(true);
    expect(table.has(300)).toBe(false);
    keys.close();
  });

  it('keeps apart answers that differ in any field but their key, and gives a service answer its kind from the key', () => {
    const keys = new UniqueKeys({ spoolDir, budget: 0 });
    for (const key of ['a@example.com', 'info@example.com', 'b@gmail.com', 'c@example.com', 'd@example.com'])
      keys.add(key);
    const table = new VerdictTable(keys);
    const at = '2026-11-26T10:00:00.000Z';
    const service = answer('valid', at, { serviceStatus: 'deliverable' });
    for (const key of ['a@example.com', 'info@example.com', 'b@gmail.com']) table.setKey(key, { ...service, key });
    table.setKey('c@example.com', answer('valid', at, { suggestion: 'x' }));
    table.setKey('d@example.com', answer('valid', at, { serviceStatus: 'x' }));
    expect(table.get(0)).toMatchObject({ key: '', free: false, role: false, serviceStatus: 'deliverable' });
    expect(table.get(1)).toMatchObject({ free: false, role: true });
    expect(table.get(2)).toMatchObject({ free: true, role: false });
    expect(table.get(3)).toMatchObject({ suggestion: 'x' });
    expect(table.get(3)?.serviceStatus).toBeUndefined();
    expect(table.get(4)).toMatchObject({ serviceStatus: 'x' });
    expect(table.get(4)?.suggestion).toBeUndefined();
    keys.close();
  });

  it('leaves out, when asked, the answers set after a point (an interrupted check counts what it kept)', () => {
    const keys = listOf(4);
    const table = new VerdictTable(keys);
    table.set(0, answer('valid', 'then'));
    table.set(1, answer('valid', 'then'));
    const kept = table.answersSoFar;
    table.set(2, answer('invalid', 'now', { decidedBy: 'local' }));
    table.set(3, answer('valid', 'then'));
    expect([0, 1, 2, 3].map((i) => table.get(i, kept)?.status)).toEqual(['valid', 'valid', undefined, 'valid']);
    expect(table.get(2)?.status).toBe('invalid');
    keys.close();
  });

  it('holds 200,000 distinct times (a batch of 50 each, ten million addresses) as it holds one', () => {
    const keys = listOf(0);
    const table = new VerdictTable(keys);
    const shared = answer('valid', '');
    const batches = 200_000;
    const per = 3;
    for (let b = 0; b < batches; b++) for (let i = 0; i < per; i++) table.set(b * per + i, shared, 1_000_000 + b);
    expect(table.size).toBe(batches * per);
    expect(table.answersSoFar).toBe(batches);
    for (const b of [0, 65_535, 65_536, 123_457, batches - 1])
      expect(table.get(b * per + 2)?.checkedAt).toBe(new Date(1_000_000 + b).toISOString());
    keys.close();
  });

  it('keeps apart 70,000 answers that differ in one field (a suggestion each)', () => {
    const keys = listOf(0);
    const table = new VerdictTable(keys);
    const made = Array.from({ length: 70_000 }, (_, i) =>
      answer('risky', '2026-11-25T10:00:00.000Z', { reason: 'possible_typo', suggestion: `u${i}@gmail.com` }),
    );
    made.forEach((v, i) => table.set(i, v));
    expect(made.every((v, i) => table.get(i)?.suggestion === v.suggestion)).toBe(true);
    expect(table.get(69_999)).toEqual(made[69_999]);
    expect(table.size).toBe(70_000);
    keys.close();
  });

  it('gives back every text time as it was written, in any order, one answer an instant and kind', () => {
    const keys = listOf(0);
    const table = new VerdictTable(keys);
    const first = Date.parse('2026-11-27T01:02:03.456Z');
    // As JavaScript writes ISO 8601 (the journal's), without milliseconds, and in another form: 3,000 batches each.
    const written = (b: number) => {
      const at = new Date(first + (b % 3_000) * 1000);
      if (b < 3_000) return at.toISOString();
      if (b < 6_000) return at.toISOString().replace('.456Z', 'Z');
      return at.toUTCString();
    };
    const order = Array.from({ length: 9_000 }, (_, b) => (b * 7_919) % 9_000);
    for (const b of order) {
      table.set(b * 2, answer('valid', written(b)));
      table.set(b * 2 + 1, answer('invalid', written(b)));
    }
    expect(table.answersSoFar).toBe(2 * 9_000);
    for (let b = 0; b < 9_000; b++) {
      expect(table.get(b * 2)).toMatchObject({ status: 'valid', checkedAt: written(b) });
      expect(table.get(b * 2 + 1)).toMatchObject({ status: 'invalid', checkedAt: written(b) });
    }
    keys.close();
  });

  it('gives back every epoch-ms time as it was: near the first, weeks away, and in 1970', () => {
    const keys = listOf(0);
    const table = new VerdictTable(keys);
    const shared = answer('valid', '');
    const first = Date.parse('2026-11-27T01:02:03.456Z');
    const times = [first, first + 1, first - 86_400_000, first + 40 * 86_400_000, first - 400 * 86_400_000, 5, 0];
    times.forEach((time, i) => table.set(i, shared, time));
    times.forEach((time, i) => expect(table.get(i)?.checkedAt).toBe(new Date(time).toISOString()));
    // The same instant as text (a journal's) and as a number (the cache's) reads the same.
    table.set(7, answer('valid', new Date(5).toISOString()));
    expect(table.get(7)?.checkedAt).toBe(table.get(5)?.checkedAt);
    keys.close();
  });
});
