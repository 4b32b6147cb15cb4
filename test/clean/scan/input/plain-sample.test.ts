// The quote-free sample split without csv-parse, against csv-parse itself (the reference) with the options the
// sniffer and the reader share: on random samples (every delimiter, blank lines, LF and CRLF, a last line with or
// without its end, any record limit) both give the same fields and raw text; what only csv-parse can say is left to it.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { plainRecords, type RawRecord } from '../../../../src/clean/scan/input/plain-sample.js';
import { DELIMITERS, parserOptions } from '../../../../src/clean/scan/input/sniff.js';
import { mulberry32 } from '../../../../src/sandbox/faults.js';

function csvParse(text: string, format: 'csv' | 'lines', delimiter: string, limit: number): RawRecord[] {
  const records: RawRecord[] = [];
  parse(text, {
    ...parserOptions(format, delimiter),
    to: limit,
    on_record: (record: unknown) => {
      records.push(record as RawRecord);
      return null;
    },
  });
  return records;
}

const PIECES = ['a', 'person@example.com', ' ', 'é', '😀', ',', ';', '\t', '|', "'", '=1', '\n', '\r\n', '\n\n'];

function randomSample(random: () => number): string {
  const pieces: string[] = [];
  for (let n = Math.floor(random() * 40); n > 0; n--) pieces.push(PIECES[Math.floor(random() * PIECES.length)]!);
  return pieces.join('');
}

describe('plainRecords', () => {
  it('gives the records csv-parse gives, on 3,000 random quote-free samples', () => {
    const random = mulberry32(33);
    for (let i = 0; i < 3_000; i++) {
      const text = randomSample(random);
      const format = random() < 0.8 ? 'csv' : 'lines';
      const delimiter = DELIMITERS[Math.floor(random() * DELIMITERS.length)]!;
      const limit = random() < 0.5 ? 200 : 1 + Math.floor(random() * 5);
      const label = `${JSON.stringify(text)} ${format} ${JSON.stringify(delimiter)} to ${limit}`;
      expect(plainRecords(text, format, delimiter, limit, 1 << 20), label).toEqual(
        csvParse(text, format, delimiter, limit),
      );
    }
  });

  it('leaves to csv-parse a quote in a CSV, a CR inside a line, and a record near the size limit', () => {
    expect(plainRecords('email\n"a@b.c"\n', 'csv', ',', 200, 1 << 20)).toBeUndefined();
    expect(plainRecords('email\n"a@b.c"\n', 'lines', ',', 200, 1 << 20)).toEqual(
      csvParse('email\n"a@b.c"\n', 'lines', ',', 200),
    );
    expect(plainRecords('a\rb,c\n', 'csv', ',', 200, 1 << 20)).toBeUndefined();
    expect(plainRecords('a,b\n', 'csv', ',', 200, 1 << 20)).toEqual(csvParse('a,b\n', 'csv', ',', 200));
    expect(plainRecords(`${'x'.repeat(100)}\n`, 'csv', ',', 200, 100)).toBeUndefined();
  });
});
