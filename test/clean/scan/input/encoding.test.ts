// Input encodings: a BOM decides; else UTF-8 if the whole input is valid UTF-8; else Windows-1252; --encoding forces one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Utf16Decoder } from '../../../../src/clean/scan/input/decode.js';
import { openInput } from '../../../../src/clean/scan/input/index.js';
import { collect, fixture, open, put, tempDir, usageError } from './helpers.js';

let tmp: { dir: string; remove: () => void };
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.remove());

const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer =>
  Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

describe('Windows-1252 (Excel "CSV" on Windows)', () => {
  it('is read without --encoding, every row once, in order, with its text right', async () => {
    const layout = await open(fixture('excel-windows.csv'), { spoolDir: join(tmp.dir, 'spool-1252') });
    try {
      expect(layout).toMatchObject({
        encoding: 'windows-1252',
        encodingGuessed: true,
        bom: false,
        delimiter: ',',
        lineEnding: '\r\n',
      });
      expect(layout.header).toEqual(['First Name', 'Last Name', 'E-mail Address', 'City', 'Notes']);
      // The copy is private, in the spool directory, and is UTF-8.
      expect(layout.file.startsWith(join(tmp.dir, 'spool-1252'))).toBe(true);
      expect(statSync(layout.file).mode & 0o777).toBe(0o600);
      const records = await collect(layout);
      expect(records.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(records.map((r) => r.fields[0])).toEqual([
        'René',
        'Jürgen',
        'Begoña',
        'Chloé',
        'François',
        'Åsa',
        'José',
        'José',
        'Zoë',
        '',
      ]);
      expect(records[1]!.fields[4]).toBe('Größe 42, Straße 7');
      // Bytes 0x80-0x9f are Windows-1252 characters, not C1 controls.
      expect(records[3]!.fields[4]).toBe('Says "merci" – often');
      expect(records[4]!.fields[4]).toBe('Paid 12€');
      expect(records[5]!.fields[4]).toBe('it’s fine');
      // Size and fingerprint name the user's bytes.
      expect(layout.size).toBe(statSync(fixture('excel-windows.csv')).size);
    } finally {
      await layout.cleanup();
    }
    expect(existsSync(layout.file)).toBe(false);
  });

  it('is detected from an invalid byte far beyond the sniffing sample', async () => {
    let text = 'Email,Name\n';
    for (let i = 0; i < 60000; i++) text += `person${i}@example.com,Person ${i}\n`; // about 2 MB of ASCII
    const path = put(
      tmp.dir,
      'late-1252.csv',
      Buffer.concat([
        Buffer.from(text),
        Buffer.from([0x4a, 0x6f, 0x73, 0xe9, 0x40, 0x78, 0x2e, 0x63, 0x6f, 0x6d, 0x2c, 0x4a, 0x6f, 0x73, 0xe9, 0x0a]),
      ]),
    );
    const layout = await open(path);
    try {
      expect(layout.encodingGuessed).toBe(true);
      const records = await collect(layout);
      expect(records).toHaveLength(60001);
      expect(records.at(-1)).toMatchObject({ line: 60002, fields: ['José@x.com', 'José'] });
    } finally {
      await layout.cleanup();
    }
  });

  it('latin1 is read as Windows-1252', async () => {
    const path = fixture('excel-windows.csv');
    const layout = await open(path, { encoding: 'latin1' });
    try {
      expect(layout).toMatchObject({ encoding: 'latin1', encodingGuessed: false });
      expect((await collect(layout))[4]!.fields[4]).toBe('Paid 12€');
    } finally {
      await layout.cleanup();
    }
  });

  it('--encoding utf-8 refuses it, naming the line and the byte', async () => {
    const path = fixture('excel-windows.csv');
    const err = await usageError(open(path, { encoding: 'utf-8' }));
    expect(err.message).toBe(`${path}:2: not valid UTF-8 (byte 0xe9)`);
    const latin = fixture('bad/invalid-utf8.csv');
    expect((await usageError(open(latin, { encoding: 'utf-8' }))).message).toBe(
      `${latin}:42: not valid UTF-8 (byte 0xe9)`,
    );
  });

  it('a UTF-8 BOM says UTF-8, so an invalid byte after it is refused', async () => {
    const path = put(
      tmp.dir,
      'bom-bad.csv',
      Buffer.concat([Buffer.from('\ufeffEmail,Name\na@b.com,Jos'), Buffer.from([0xe9, 0x0a])]),
    );
    expect((await usageError(open(path))).message).toBe(`${path}:2: not valid UTF-8 (byte 0xe9)`);
  });
});

describe('UTF-16 (Excel "Unicode text")', () => {
  it('little-endian with a BOM, tab separated: every row once, in order, with its text right', async () => {
    const layout = await open(fixture('excel-unicode.txt'));
    try {
      expect(layout).toMatchObject({
        encoding: 'utf-16le',
        encodingGuessed: false,
        bom: true,
        delimiter: '\t',
        lineEnding: '\r\n',
        emailColumnName: 'Email',
      });
      // The copy starts with a UTF-8 BOM, so the output gets one too.
      expect([...readFileSync(layout.file).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const records = await collect(layout);
      // Line 5 holds a quoted line break, so the record after it starts on line 7.
      expect(records.map((r) => r.line)).toEqual([2, 3, 4, 5, 7, 8, 9, 10, 11]);
      expect(records.map((r) => r.fields[2])).toEqual([
        'Kovač',
        '山田',
        'Noël',
        'Peña',
        '😀 Smile',
        'Address',
        'Kovač',
        'Email',
        'Müller',
      ]);
      expect(records[2]!.fields[3]).toBe('Société "Générale"');
      expect(records[3]!.fields[3]).toBe('Line one\r\nline two');
      expect(records[8]!.fields[0]).toBe('jürgen.müller@example.de');
    } finally {
      await layout.cleanup();
    }
  });

  it('big-endian with a BOM', async () => {
    const path = put(tmp.dir, 'be.txt', utf16be('Email\tName\r\nzoe@example.com\tZoë 😀\r\n'));
    const layout = await open(path);
    try {
      expect(layout.encoding).toBe('utf-16be');
      expect((await collect(layout)).map((r) => r.fields)).toEqual([['zoe@example.com', 'Zoë 😀']]);
    } finally {
      await layout.cleanup();
    }
  });

  it('without a BOM only with --encoding (else it looks binary)', async () => {
    const path = put(tmp.dir, 'nobom.txt', Buffer.from('Email\tName\na@example.com\tÅsa\n', 'utf16le'));
    expect((await usageError(open(path))).message).toMatch(/this looks like a binary file/);
    const layout = await open(path, { encoding: 'utf-16le' });
    try {
      expect(layout.bom).toBe(false);
      expect((await collect(layout)).map((r) => r.fields)).toEqual([['a@example.com', 'Åsa']]);
    } finally {
      await layout.cleanup();
    }
  });

  it('from stdin: both spooled copies are removed by cleanup', async () => {
    const spoolDir = join(tmp.dir, 'spool-stdin16');
    const stdin = Readable.from([utf16le('Email\r\nann@example.com\r\n')]);
    const layout = await openInput({ path: '-', stdin, spoolDir });
    expect(layout.displayName).toBe('stdin');
    expect(readdirSync(spoolDir)).toHaveLength(2);
    expect((await collect(layout)).map((r) => r.fields[0])).toEqual(['ann@example.com']);
    await layout.cleanup();
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('an unpaired surrogate is refused with its line, and no copy is left behind', async () => {
    const spoolDir = join(tmp.dir, 'spool-bad16');
    const bytes = Buffer.concat([
      utf16le('Email,Name\r\na@b.com,A\r\nc@d.com,'),
      Buffer.from([0x3d, 0xd8]),
      Buffer.from('x\r\n', 'utf16le'),
    ]);
    const path = put(tmp.dir, 'lone.txt', bytes);
    const err = await usageError(open(path, { spoolDir }));
    expect(err.message).toBe(`${path}:3: not valid UTF-16`);
    expect(err.exitCode).toBe(2);
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});

describe('Utf16Decoder', () => {
  const decodeAll = (bytes: Buffer, cuts: number[], bigEndian = false): string => {
    const d = new Utf16Decoder(bigEndian, 'x.txt');
    let out = '';
    let at = 0;
    for (const cut of [...cuts, bytes.length]) {
      out += d.decode(bytes.subarray(at, cut));
      at = cut;
    }
    d.end();
    return out;
  };

  it('gives the same text for every split into two and three chunks (pairs and odd bytes split too)', () => {
    const text = 'a😀é\n山😀';
    for (const [bytes, be] of [
      [Buffer.from(text, 'utf16le'), false],
      [Buffer.from(text, 'utf16le').swap16(), true],
    ] as const) {
      for (let i = 0; i <= bytes.length; i++) {
        expect(decodeAll(bytes, [i], be)).toBe(text);
        for (let j = i; j <= bytes.length; j++) expect(decodeAll(bytes, [i, j], be)).toBe(text);
      }
    }
  });

  it('an odd byte or half a pair at the end is refused on the last line', () => {
    expect(() => decodeAll(Buffer.concat([Buffer.from('a\nb', 'utf16le'), Buffer.from([0x41])]), [])).toThrow(
      'x.txt:2: not valid UTF-16',
    );
    expect(() => decodeAll(Buffer.from([0x61, 0x00, 0x3d, 0xd8]), [])).toThrow('x.txt:1: not valid UTF-16');
  });

  it('a low surrogate alone is refused with its line', () => {
    expect(() => decodeAll(Buffer.concat([Buffer.from('a\nb\n', 'utf16le'), Buffer.from([0x00, 0xdc])]), [1])).toThrow(
      'x.txt:3: not valid UTF-16',
    );
  });
});
