// The fast reader against csv-parse, the reference: on every fixture and on random lists (random quoting, delimiters,
// line endings, BOMs, blank lines, broken quotes, chunk boundaries anywhere), both give the same records (line, raw
// text, fields, terminator) and fail with the same message. Clean lists must be read without csv-parse's help.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { FastRecordParser } from '../../../../src/clean/scan/input/fast-record-parser.js';
import type { InputLayout, InputRecord, ReadOptions } from '../../../../src/clean/scan/input/index.js';
import { readRecordBatches } from '../../../../src/clean/scan/input/index.js';
import { mulberry32 } from '../../../../src/sandbox/faults.js';
import { FIXTURES, fixture, open, put, tempDir } from './helpers.js';

type Outcome = { records: InputRecord[]; error?: string };

async function read(layout: InputLayout, options: ReadOptions): Promise<Outcome> {
  const records: InputRecord[] = [];
  try {
    for await (const batch of readRecordBatches(layout, options)) records.push(...batch);
    return { records };
  } catch (err) {
    return { records, error: (err as Error).message };
  }
}

/** Only what a reader of `fields: 'email'` may rely on: the email cell and the field count. */
function emailOnly(outcome: Outcome, column: number) {
  return { ...outcome, records: outcome.records.map((r) => ({ ...r, fields: [r.fields.length, r.fields[column]] })) };
}

/** The write pass's read (`raw: 'bytes'`, the email field), each record's bytes decoded before the next batch. */
async function readAsWritten(layout: InputLayout, options: ReadOptions): Promise<Outcome> {
  const records: InputRecord[] = [];
  try {
    for await (const batch of readRecordBatches(layout, { ...options, raw: 'bytes', fields: 'email' }))
      for (const { rawBytes, ...record } of batch) records.push({ ...record, raw: rawBytes?.toString() ?? record.raw });
    return { records };
  } catch (err) {
    return { records, error: (err as Error).message };
  }
}

/** What csv-parse gives, read as the write pass reads a list whose scan found every row as wide as the header. */
async function expectEvenRowsAsCsvParse(layout: InputLayout, reference: Outcome, label: string, feedBytes: number) {
  const even = reference.records.every((r) => r.fields.length === layout.columnCount);
  if (!even || layout.format === 'lines') return false;
  const got = await readAsWritten(layout, { parser: 'fast', feedBytes, evenRows: true });
  expect(emailOnly(got, layout.emailColumn), `${label} (even rows, feed ${feedBytes})`).toEqual(
    emailOnly(reference, layout.emailColumn),
  );
  return true;
}

async function expectSameAsCsvParse(layout: InputLayout, label: string, feedBytes: number): Promise<boolean> {
  const reference = await read(layout, { parser: 'csv-parse' });
  expect(await read(layout, { parser: 'fast', feedBytes }), `${label} (fields: all, feed ${feedBytes})`).toEqual(
    reference,
  );
  const email = await read(layout, { parser: 'fast', fields: 'email', raw: false, feedBytes });
  const expected = { ...reference, records: reference.records.map((r) => ({ ...r, raw: '' })) };
  expect(emailOnly(email, layout.emailColumn), `${label} (fields: email)`).toEqual(
    emailOnly(expected, layout.emailColumn),
  );
  return expectEvenRowsAsCsvParse(layout, reference, label, feedBytes);
}

const DELIMITERS = [',', ';', '\t', '|'];
const WORDS = ['ann@example.com', 'bob@mail.test', 'Zoë', '山田', ' x ', '', 'a b', '😀', "O'Brien", 'x@y'];

/** A list as users' tools write them; `hostile` adds what they should not (stray quotes, lone CRs, unclosed quotes). */
function randomList(rand: () => number, hostile: boolean): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const delimiter = pick(DELIMITERS);
  const eol = rand() < 0.5 ? '\n' : '\r\n';
  const columns = 1 + Math.floor(rand() * 4);
  const cell = (): string => {
    const r = rand();
    if (hostile && r < 0.08) return pick(['"', 'a"b', '"x"y', ' "q"', '\r', 'a\rb', '"open']);
    if (r < 0.3) {
      const inner = [pick(WORDS), pick(['', delimiter, '""', '\n', '\r\n', ' ']), pick(WORDS)].join('');
      return `"${inner}"`;
    }
    return pick(WORDS).replaceAll(delimiter, '');
  };
  const lines: string[] = [['email', 'name', 'city', 'tags'].slice(0, columns).join(delimiter)];
  const rows = Math.floor(rand() * 12);
  for (let i = 0; i < rows; i++) {
    if (rand() < 0.08) lines.push(pick(['', '  ', '\t']));
    const count = rand() < 0.1 ? columns + pick([-1, 1]) : columns;
    lines.push(
      Array.from({ length: Math.max(1, count) }, (_, c) =>
        c === 0 && rand() < 0.7 ? `u${i}@example.com` : cell(),
      ).join(delimiter),
    );
  }
  const bom = rand() < 0.2 ? '\uFEFF' : '';
  const end = rand() < 0.7 ? eol : '';
  return bom + lines.join(eol) + end;
}

describe('the fast reader reads as csv-parse does', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('on every fixture, with chunk boundaries everywhere', async () => {
    const names = readdirSync(FIXTURES).filter((name) => !name.endsWith('.md') && !name.endsWith('.xlsx'));
    let compared = 0;
    for (const name of names) {
      const layout = await open(fixture(name)).catch(() => undefined);
      if (!layout) continue;
      for (const feedBytes of [1, 7, 64 * 1024]) await expectSameAsCsvParse(layout, name, feedBytes);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('on 600 random lists, clean and hostile', async () => {
    const rand = mulberry32(20261124);
    let compared = 0;
    let even = 0;
    for (let n = 0; n < 600; n++) {
      const text = randomList(rand, n % 2 === 1);
      const path = put(temp.dir, `list-${n}.csv`, text);
      const layout = await open(path).catch(() => undefined);
      if (!layout) continue;
      if (await expectSameAsCsvParse(layout, `list ${n}: ${JSON.stringify(text)}`, 1 + Math.floor(rand() * 40))) even++;
      compared++;
    }
    expect(compared).toBeGreaterThan(400);
    expect(even).toBeGreaterThan(100);
  });

  it('finds the records of a list with even rows by their line ends, quoting and all', async () => {
    const lines = [
      '\uFEFFname;email;note',
      'Ann;ann@example.com;plain',
      '"Lee; Bob";bob@example.com;"a ""quoted"" word"',
      'Zoë;"zoë@example.com";"two',
      'lines"',
      '',
      '  ',
      'Ed;ed@example.com;',
      // A lone CR is text inside a field, for csv-parse as for the fast reader.
      'Cy\r;cy@example.com;x\ry',
      ';;',
      'Al;al@example.com;last line, no line break',
    ];
    for (const eol of ['\n', '\r\n']) {
      const path = put(temp.dir, `even${eol.length}.csv`, lines.join(eol));
      const layout = await open(path);
      for (const feedBytes of [1, 3, 64 * 1024]) {
        const reference = await read(layout, { parser: 'csv-parse' });
        expect(reference.records.map((r) => r.fields[1])).toEqual([
          'ann@example.com',
          'bob@example.com',
          'zoë@example.com',
          'ed@example.com',
          'cy@example.com',
          '',
          'al@example.com',
        ]);
        expect(await expectEvenRowsAsCsvParse(layout, reference, `eol ${JSON.stringify(eol)}`, feedBytes)).toBe(true);
      }
    }
  });

  it('steps over the quoted fields after the email field as csv-parse reads them, stray quotes and all', async () => {
    const lines = [
      'email,name,note',
      'ann@example.com,"Lee, Ann","a ""quoted"" word"',
      'bob@example.com,Bob,"two',
      'lines, ""one"" field"',
      'cy@example.com,a"b,"c"',
      'gil@example.com,a"b,"line',
      'break"',
      'di@example.com,"",""',
      'ed@example.com,"x"y,z',
      'fi@example.com,"ends in a quote """,',
    ];
    for (const eol of ['\n', '\r\n']) {
      const path = put(temp.dir, `quoted${eol.length}.csv`, lines.join(eol) + eol);
      const layout = await open(path);
      for (const feedBytes of [1, 2, 5, 64 * 1024]) {
        const reference = await read(layout, { parser: 'csv-parse' });
        expect(reference.records.length).toBeGreaterThan(3);
        expect(await expectEvenRowsAsCsvParse(layout, reference, `eol ${JSON.stringify(eol)}`, feedBytes)).toBe(true);
      }
    }
  });

  it('reads clean lists alone, without handing them to csv-parse', async () => {
    const rand = mulberry32(7);
    const handedOver: string[] = [];
    let read = 0;
    for (let n = 0; n < 100; n++) {
      const path = put(temp.dir, `clean-${n}.csv`, randomList(rand, false));
      const layout = await open(path).catch(() => undefined);
      if (!layout) continue;
      const parser = new FastRecordParser(layout, true, true);
      const bytes = readFileSync(path).subarray(layout.bodyOffset);
      for (let at = 0; at < bytes.length; at += 5) parser.feed(bytes.subarray(at, at + 5));
      await parser.end();
      if (parser.handedOver) handedOver.push(readFileSync(path, 'utf8'));
      read++;
    }
    expect(read).toBeGreaterThan(80);
    expect(handedOver).toEqual([]);
  });
});
