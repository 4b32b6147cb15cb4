// The scan over a real file, with budgets of 0 so that what it keeps goes to disk: every row's address number
// leads back to that row's address, the counts match a Set's, each new address is handed on once, the spill files
// are private and go with `release`, and the spill of a run killed with SIGKILL is removed by the next run once its
// process is gone.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanInput } from '../../../src/clean/scan/scan.js';
import { mulberry32 } from '../../../src/sandbox/faults.js';
import { open, put, tempDir } from './input/helpers.js';

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.remove());

/**
 * A list with quoted names, blank and malformed cells, wrapped addresses and repeats in another case; and each
 * row's address as the scan must key it (none for a blank or malformed cell), known from how the row was made.
 */
function list(rows: number): { text: string; keys: Array<string | undefined>; cells: string[] } {
  const rand = mulberry32(5);
  const lines = ['Email,Name,Notes'];
  const keys: Array<string | undefined> = [];
  const cells: string[] = [];
  for (let i = 0; i < rows; i++) {
    const n = Math.floor(rand() * i) + 1;
    const r = rand();
    const [email, key] =
      r < 0.02
        ? ['', undefined]
        : r < 0.03
          ? ['not-an-address', undefined]
          : r < 0.05
            ? [`"Someone <p${n}@example.com>"`, `p${n}@example.com`]
            : r < 0.3
              ? [`p${n}@EXAMPLE.com`, `p${n}@example.com`]
              : [`p${i}@example.com`, `p${i}@example.com`];
    cells.push(email);
    lines.push(`${email},"Name, ${i}",${rand() < 0.01 ? '"two\nlines"' : ''}`);
    keys.push(key);
  }
  return { text: `${lines.join('\n')}\n`, keys, cells };
}

/** Where two long lists first differ (a deep equality over 300,000 strings takes seconds), or undefined. */
function firstDifference(actual: string[], expected: string[]): string | undefined {
  for (let i = 0; i < Math.max(actual.length, expected.length); i++)
    if (actual[i] !== expected[i]) return `at ${i}: ${actual[i]} instead of ${expected[i]}`;
  return undefined;
}

describe('scanInput, spilling', () => {
  it('gives each row with an address the number of that address, read back from disk', async () => {
    // 400,000 rows: the row numbers reach disk only past 327,680 (a chunk of 262,144 and the page after it).
    const made = list(400_000);
    const layout = await open(put(temp.dir, 'list.csv', made.text));
    const spoolDir = join(temp.dir, 'spool');
    const newKeys: string[] = [];
    const scan = await scanInput(layout, {
      spoolDir,
      keepRowOrdinals: true,
      budgets: { keys: 0, rows: 0 },
      onNewKey: (key) => newKeys.push(key),
    });
    expect(readdirSync(spoolDir).sort()).toEqual([
      expect.stringMatching(/^keys-\d+~[0-9a-f]{8}-[0-9a-f]+\.spool$/),
      expect.stringMatching(/^rows-\d+~[0-9a-f]{8}-[0-9a-f]+\.spool$/),
    ]);
    const keys = [...scan.unique];
    const next = scan.rowOrdinals?.reader();
    let withAddress = 0;
    const expected = new Set<string>();
    // Compared by hand, and asserted once: 400,000 calls to expect() took longer than the scan itself. The keys
    // come from how the list was made, not from reading it again (as long again as the scan, under load).
    const wrong: string[] = [];
    made.keys.forEach((key, row) => {
      if (key === undefined) return;
      withAddress++;
      expected.add(key);
      const found = keys[next?.() ?? -1];
      if (found !== key && wrong.length < 5) wrong.push(`row ${row + 1}: ${found} instead of ${key}`);
    });
    expect(wrong).toEqual([]);
    expect(firstDifference(keys, [...expected])).toBeUndefined();
    // Each address was handed on (to the engine's prefetch) once, when first seen.
    expect(firstDifference(newKeys, keys)).toBeUndefined();
    expect([scan.rows, scan.rows - scan.blank - scan.invalid, scan.duplicates]).toEqual([
      400_000,
      withAddress,
      withAddress - expected.size,
    ]);
    scan.release();
    expect(readdirSync(spoolDir)).toEqual([]);
    await layout.cleanup();
  });

  it('marks the rows whose cell is its address as it stands, so the write pass need not decide them again', async () => {
    const made = list(70_000);
    const layout = await open(put(temp.dir, 'list.csv', made.text));
    const scan = await scanInput(layout, { spoolDir: join(temp.dir, 'spool'), keepRowOrdinals: true });
    const plain = scan.plainRows!.reader();
    const { cells } = made;
    const wrong = cells.filter((cell, row) => plain() !== (made.keys[row] !== undefined && made.keys[row] === cell));
    expect(wrong).toEqual([]);
    // Past the last row there is nothing to read: the write pass reads exactly the scan's rows.
    expect(() => plain()).toThrow(/more rows/);
    expect(cells.filter((cell, row) => made.keys[row] === cell).length).toBeGreaterThan(45_000);
    scan.release();
    await layout.cleanup();
  });

  it('removes what a killed run spilled, once its process is gone', async () => {
    const spoolDir = join(temp.dir, 'spool');
    // Its keys, and the cache's answers an earlier version read ahead into the spool directory.
    const dead = ['keys', 'answers'].map((kind) => join(spoolDir, `${kind}-999999999-0a1b2c.spool`));
    mkdirSync(spoolDir);
    for (const file of dead) writeFileSync(file, 'what a list spilled');
    const layout = await open(put(temp.dir, 'list.csv', 'email\na@example.com\n'), { spoolDir });
    expect(dead.filter((file) => existsSync(file))).toEqual([]);
    await layout.cleanup();
  });
});
