// Bad input: every case is a UsageError (exit code 2) naming the file and, where it applies, the line.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, fixture, open, put, readRecords, tempDir, usageError } from './helpers.js';

let tmp: { dir: string; remove: () => void };
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.remove());

const rows = (from: number, to: number): string => {
  let s = '';
  for (let i = from; i <= to; i++) s += `person${i}@example.com,Person ${i},Town ${i}\n`;
  return s;
};

describe('bad fixtures', () => {
  const cases: [string, string, string?][] = [
    ['empty.csv', ':1: the file is empty'],
    ['blank.csv', ':1: the file is empty'],
    ['header-only.csv', ':1: the file has a header but no rows'],
    [
      'no-email-column.csv',
      ':1: no email column found (columns: Name, Phone, City)',
      'pass --column NAME or --column N',
    ],
    ['binary.bin', ':1: this looks like a binary file, not CSV or text'],
    ['unclosed-quote.csv', ':5: a quoted field is never closed'],
  ];
  for (const [name, suffix, hint] of cases) {
    it(`${name} is refused by openInput`, async () => {
      const path = fixture(`bad/${name}`);
      const err = await usageError(open(path));
      expect(err.message).toBe(path + suffix);
      expect(err.exitCode).toBe(2);
      if (hint) expect(err.hint).toBe(hint);
    });
  }

  it('ragged.csv with --strict fails while reading, at the right line, after the rows before it', async () => {
    const path = fixture('bad/ragged.csv');
    const layout = await open(path, { strict: true });
    const seen: number[] = [];
    const err = await usageError(
      (async () => {
        for await (const r of readRecords(layout)) seen.push(r.line);
      })(),
    );
    expect(err.message).toBe(`${path}:17: 3 fields where the header has 5`);
    // Line 5 holds a quoted line break, so the record after it starts on line 7.
    expect(seen).toEqual([2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  it('ragged rows are reported however the input is chunked', async () => {
    const layout = await open(fixture('bad/ragged.csv'), { strict: true });
    for (const feedBytes of [1, 4, 33]) {
      const err = await usageError(collect(layout, { feedBytes }));
      expect(err.message).toMatch(/ragged\.csv:17: 3 fields where the header has 5$/);
    }
  });
});

describe('ragged rows', () => {
  it('are read as they are by default, each with its own fields and its original text', async () => {
    const path = fixture('bad/ragged.csv');
    const layout = await open(path);
    expect(layout.strict).toBe(false);
    for (const feedBytes of [1, 33, undefined]) {
      const records = await collect(layout, { feedBytes });
      expect(records.map((r) => r.line)).toEqual([2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      const short = records.find((r) => r.line === 17)!;
      expect(short).toMatchObject({
        raw: 'oops@example.com,Only,Three',
        fields: ['oops@example.com', 'Only', 'Three'],
        eol: '\n',
      });
      expect(records.filter((r) => r.fields.length !== 5)).toEqual([short]);
    }
  });

  it('with --strict, without a header, compares with the first row', async () => {
    const path = put(tmp.dir, 'nohead.csv', 'a@x.com,A,1\nb@x.com,B\n');
    const err = await usageError(collect(await open(path, { strict: true })));
    expect(err.message).toBe(`${path}:2: 2 fields where the first row has 3`);
  });

  it('with --strict, too many fields, too', async () => {
    const path = put(tmp.dir, 'many.csv', 'Email,Name\na@x.com,A\nb@x.com,B,extra,more\n');
    const err = await usageError(collect(await open(path, { strict: true })));
    expect(err.message).toBe(`${path}:3: 4 fields where the header has 2`);
    expect(err.hint).toContain('double quotes');
  });
});

describe('empty input', () => {
  it('a BOM alone', async () => {
    const path = put(tmp.dir, 'bom-only.csv', '\ufeff');
    expect((await usageError(open(path))).message).toBe(`${path}:1: the file is empty`);
  });

  it('only whitespace', async () => {
    const path = put(tmp.dir, 'spaces.csv', '  \n\t\n\r\n   ');
    expect((await usageError(open(path))).message).toBe(`${path}:1: the file is empty`);
  });

  it('a header followed by blank lines only', async () => {
    const path = put(tmp.dir, 'head-blank.csv', 'Email;Name\r\n\r\n  \r\n');
    expect((await usageError(open(path))).message).toBe(`${path}:1: the file has a header but no rows`);
  });

  it('errors about the header name the line it is on', async () => {
    const late = put(tmp.dir, 'late-head.csv', '\n\nEmail;Name\n');
    expect((await usageError(open(late))).message).toBe(`${late}:3: the file has a header but no rows`);
    const sep = put(tmp.dir, 'sep-head.csv', 'sep=;\nWho;Phone\nAnn;123\n');
    expect((await usageError(open(sep))).message).toBe(`${sep}:2: no email column found (columns: Who, Phone)`);
  });
});

// Without --encoding utf-8 (or a UTF-8 BOM) these would be read as Windows-1252: see encoding.test.ts.
describe('encoding', () => {
  it('invalid UTF-8 in the first line', async () => {
    const path = put(
      tmp.dir,
      'latin1.csv',
      Buffer.from([0x45, 0x6d, 0x61, 0x69, 0x6c, 0x0a, 0x61, 0x40, 0x62, 0x2e, 0x63, 0xff, 0x0a]),
    );
    expect((await usageError(open(path, { encoding: 'utf-8' }))).message).toBe(
      `${path}:2: not valid UTF-8 (byte 0xff)`,
    );
  });

  it('a sequence cut off by the end of the file', async () => {
    const path = put(tmp.dir, 'cut.csv', Buffer.concat([Buffer.from('Email\na@b.com\nZo'), Buffer.from([0xc3])]));
    expect((await usageError(open(path, { encoding: 'utf-8' }))).message).toBe(
      `${path}:3: not valid UTF-8 (byte 0xc3)`,
    );
  });

  it('far beyond the sniffing sample (found while the records are read)', async () => {
    const head = `Email,Name,City\n${rows(2, 60001)}`; // about 2.3 MB
    const path = put(
      tmp.dir,
      'late-bad.csv',
      Buffer.concat([Buffer.from(head), Buffer.from('x@y.com,Jos'), Buffer.from([0xe9, 0x0a])]),
    );
    const layout = await open(path, { encoding: 'utf-8' });
    const err = await usageError(
      (async () => {
        for await (const _ of readRecords(layout)) void _;
      })(),
    );
    expect(err.message).toBe(`${path}:60002: not valid UTF-8 (byte 0xe9)`);
  });

  it('readRecords checks too (the file changed after openInput), after delivering earlier rows', async () => {
    const path = put(tmp.dir, 'changes.csv', `Email,Name,City\n${rows(2, 10)}`);
    const layout = await open(path);
    const text = `Email,Name,City\n${rows(2, 10)}`;
    const bytes = Buffer.from(text);
    bytes[text.indexOf('Person 7')] = 0xff; // same size, now invalid on line 7
    writeFileSync(path, bytes);
    for (const feedBytes of [undefined, 1, 10]) {
      const seen: number[] = [];
      const err = await usageError(
        (async () => {
          for await (const r of readRecords(layout, { feedBytes })) seen.push(r.line);
        })(),
      );
      expect(err.message).toBe(`${path}:7: not valid UTF-8 (byte 0xff)`);
      expect(seen).toEqual([2, 3, 4, 5, 6]);
    }
  });

  it('control characters without NULs are binary too', async () => {
    const bytes = Buffer.alloc(2000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 3 === 0 ? 0x01 + (i % 7) : 0x41 + (i % 26);
    const path = put(tmp.dir, 'controls.dat', bytes);
    expect((await usageError(open(path))).message).toBe(`${path}:1: this looks like a binary file, not CSV or text`);
  });

  it('old Mac line endings are refused rather than read as one line', async () => {
    const path = put(tmp.dir, 'mac.csv', 'Email,Name\ra@b.com,A\rc@d.com,C\r');
    expect((await usageError(open(path))).message).toBe(
      `${path}:1: lines end with a carriage return alone (old Mac format)`,
    );
  });
});

describe('NUL bytes: one rule and one message wherever they are', () => {
  it('near the start, found by openInput', async () => {
    const path = put(tmp.dir, 'nul-early.csv', `Email,Name,City\n${rows(2, 3)}x@y.com,Jo\0,Town\n${rows(5, 9)}`);
    const err = await usageError(open(path));
    expect(err.message).toBe(`${path}:4: contains a NUL byte`);
    expect(err.exitCode).toBe(2);
  });

  it('beyond the 2 MiB sample, found while reading, after the rows before it', async () => {
    const path = put(
      tmp.dir,
      'nul-late.csv',
      `Email,Name,City\n${rows(2, 60001)}x@y.com,Jo\0,Town\n${rows(60003, 60010)}`,
    );
    const layout = await open(path);
    for (const feedBytes of [undefined, 7]) {
      let last = 0;
      const err = await usageError(
        (async () => {
          for await (const r of readRecords(layout, { feedBytes })) last = r.line;
        })(),
      );
      expect(err.message).toBe(`${path}:60002: contains a NUL byte`);
      expect(last).toBe(60001);
    }
  });

  it('in a plain list, and in Windows-1252 or UTF-16 input, with the line of the file', async () => {
    const list = put(tmp.dir, 'nul-list.txt', 'a@b.com\nc@d.com\0\n');
    expect((await usageError(open(list))).message).toBe(`${list}:2: contains a NUL byte`);
    const cp1252 = put(tmp.dir, 'nul-1252.csv', Buffer.from('Email,Name\na@b.com,Ren\xe9\nc@d.com,\0\n', 'latin1'));
    expect((await usageError(open(cp1252))).message).toBe(`${cp1252}:3: contains a NUL byte`);
    const utf16 = put(
      tmp.dir,
      'nul-16.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Email\r\na@b.com\r\nc\0@d.com\r\n', 'utf16le')]),
    );
    expect((await usageError(open(utf16))).message).toBe(`${utf16}:3: contains a NUL byte`);
  });
});

describe('huge records and runaway quotes', () => {
  it('a 10 MB field on line 2 is refused while reading', async () => {
    const path = put(tmp.dir, 'huge.csv', `Email,Notes\na@b.com,${'x'.repeat(10 * 1024 * 1024)}\nc@d.com,ok\n`);
    const layout = await open(path); // the sample only holds the header; the email column is named
    expect(layout.emailColumnName).toBe('Email');
    expect((await usageError(collect(layout))).message).toBe(`${path}:2: a record longer than 1 MiB`);
  });

  it('a 10 MB quoted field on one line is a long record, not an unclosed quote', async () => {
    const path = put(
      tmp.dir,
      'huge-quoted.csv',
      `Email,Notes\na@b.com,ok\nc@d.com,"${'y'.repeat(10 * 1024 * 1024)}"\n`,
    );
    const layout = await open(path);
    expect((await usageError(collect(layout))).message).toBe(`${path}:3: a record longer than 1 MiB`);
  });

  it('a 1.5 MB record inside the sample is refused by openInput', async () => {
    const path = put(
      tmp.dir,
      'long-in-sample.csv',
      `Email,Notes\na@b.com,ok\nc@d.com,${'z'.repeat(1.5 * 1024 * 1024)}\ne@f.com,ok\n`,
    );
    expect((await usageError(open(path))).message).toBe(`${path}:3: a record longer than 1 MiB`);
  });

  it('an unclosed quote swallowing more than 1 MiB', async () => {
    const path = put(tmp.dir, 'swallow.csv', `Email,Name,City\n${rows(2, 4)}"e@x.com,Unclosed,Oops\n${rows(6, 40000)}`);
    expect((await usageError(open(path))).message).toBe(`${path}:5: a quoted field is never closed`);
  });

  it('an unclosed quote past the sample, found while reading', async () => {
    const path = put(
      tmp.dir,
      'late-quote.csv',
      `Email,Name,City\n${rows(2, 60001)}"late@x.com,Late,Town\n${rows(60003, 60100)}`,
    );
    const layout = await open(path);
    const err = await usageError(collect(layout));
    expect(err.message).toBe(`${path}:60002: a quoted field is never closed`);
  });

  it('an unclosed quote past the sample that swallows more than 1 MiB', async () => {
    const path = put(
      tmp.dir,
      'late-swallow.csv',
      `Email,Name,City\n${rows(2, 60001)}"late@x.com,Late,Town\n${rows(60003, 100000)}`,
    );
    const layout = await open(path);
    expect((await usageError(collect(layout))).message).toBe(`${path}:60002: a quoted field is never closed`);
  });
});

describe('files that cannot be read', () => {
  it('no such file', async () => {
    const path = `${tmp.dir}/missing.csv`;
    expect((await usageError(open(path))).message).toBe(`${path}: no such file`);
  });

  it('a directory', async () => {
    const path = `${tmp.dir}/a-dir`;
    mkdirSync(path);
    expect((await usageError(open(path))).message).toBe(`${path}: is a directory, not a file`);
  });

  it.skipIf(process.getuid?.() === 0)('permission denied', async () => {
    const path = put(tmp.dir, 'secret.csv', 'Email\na@b.com\n');
    chmodSync(path, 0o000);
    expect((await usageError(open(path))).message).toBe(`${path}: permission denied`);
  });

  it('the file vanishing between the passes', async () => {
    const path = put(tmp.dir, 'vanish.csv', 'Email\na@b.com\n');
    const layout = await open(path);
    rmSync(path);
    expect((await usageError(collect(layout))).message).toBe(`${path}: no such file`);
  });
});
