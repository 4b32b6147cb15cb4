// A list of several read chunks (1 MiB each): the reader reuses its chunk buffers, and csv-parse keeps a view of the
// last bytes it was given, so a record that straddles two chunks must still come out whole, with either reader and
// with the record's bytes (the write pass's read).
import { afterAll, describe, expect, it } from 'vitest';
import { readRecordBatches } from '../../../../src/clean/scan/input/index.js';
import { CHUNK_BYTES } from '../../../../src/clean/scan/input/source.js';
import { open, put, tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(tmp.remove);

const HEADER = 'id,note,email\n';
/** Rows with a quoted line break and a doubled quote, so that csv-parse (and the fast reader) step through quotes. */
const plain = (i: number): string => `${i},"n ${i % 10}\nsays ""hi""",user${i}@example.test`;
/**
 * The first row that starts in the last 64 KiB of the first chunk (the reader feeds 64 KiB at a time) has a quote
 * inside an unquoted field: the fast reader hands it and the rest to csv-parse there, and the first bytes csv-parse
 * is given are a view of the chunk's buffer.
 */
const STRAY = (() => {
  let offset = HEADER.length;
  for (let i = 0; ; i++) {
    if (offset >= CHUNK_BYTES - 30_000) return i;
    offset += plain(i).length + 1;
  }
})();
const row = (i: number): string => (i === STRAY ? `${i},x"y,user${i}@example.test` : plain(i));
const fieldsOf = (i: number): string[] => [
  String(i),
  i === STRAY ? 'x"y' : `n ${i % 10}\nsays "hi"`,
  `user${i}@example.test`,
];
const lineOf = (i: number): number => 2 + 2 * i - (i > STRAY ? 1 : 0);

const ROWS = Math.ceil((3.5 * CHUNK_BYTES) / plain(0).length);
const text = `${HEADER}${Array.from({ length: ROWS }, (_, i) => row(i)).join('\n')}\n`;

describe('a list longer than several read chunks', () => {
  it.each([
    ['csv-parse', { parser: 'csv-parse' as const }],
    ['the fast reader, handing over to csv-parse in a chunk', { parser: 'fast' as const }],
    ['the fast reader, with the bytes', { parser: 'fast' as const, raw: 'bytes' as const, fields: 'email' as const }],
  ])('%s gives every record whole, in order', async (_label, options) => {
    const layout = await open(put(tmp.dir, 'long.csv', text));
    const emailOnly = 'fields' in options;
    let i = 0;
    let wrong = 0;
    for await (const batch of readRecordBatches(layout, options)) {
      for (const record of batch) {
        const raw = record.rawBytes ? record.rawBytes.toString() : record.raw;
        // Every field where the reader decodes them all, else the email field and the count.
        const fields = emailOnly ? [record.fields.length, record.fields[2]] : record.fields;
        const expected = emailOnly ? [3, fieldsOf(i)[2]] : fieldsOf(i);
        if (raw !== row(i) || record.line !== lineOf(i) || JSON.stringify(fields) !== JSON.stringify(expected)) wrong++;
        i++;
      }
    }
    expect(text.length).toBeGreaterThan(3 * CHUNK_BYTES);
    expect({ records: i, wrong }).toEqual({ records: ROWS, wrong: 0 });
  });
});
