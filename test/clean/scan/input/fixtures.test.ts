// Every good fixture: what is detected, and that the records' raw text reproduces the input byte for byte.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collect, fixture, open, rebuild, rebuildWithEol, withoutBlankLines } from './helpers.js';

interface Expected {
  format: 'csv' | 'lines';
  delimiter: string;
  bom: boolean;
  lineEnding: '\n' | '\r\n';
  hasHeader: boolean;
  columnCount: number;
  emailColumn: number;
  emailColumnName: string;
  rows: number;
  endsWithNewline: boolean;
}

const csv = (d: string, columnCount: number, emailColumn: number, emailColumnName: string, rows: number): Expected => ({
  format: 'csv',
  delimiter: d,
  bom: false,
  lineEnding: '\n',
  hasHeader: true,
  columnCount,
  emailColumn,
  emailColumnName,
  rows,
  endsWithNewline: true,
});

const expected: Record<string, Expected> = {
  'mailchimp.csv': csv(',', 23, 0, 'Email Address', 15),
  'google-contacts.csv': csv(',', 35, 30, 'E-mail 1 - Value', 12),
  // "Email Domain" comes first but "Email" is the exact name.
  'hubspot.csv': csv(',', 12, 4, 'Email', 12),
  'brevo.csv': { ...csv(';', 6, 0, 'EMAIL', 10), lineEnding: '\r\n' },
  'outlook.csv': { ...csv(',', 61, 8, 'E-mail Address', 10), bom: true, lineEnding: '\r\n' },
  'klaviyo.csv': csv(',', 18, 0, 'Email', 10),
  'spreadsheet.tsv': csv('\t', 4, 1, 'E-mail', 10),
  'crm-export.psv': csv('|', 4, 2, 'email_address', 10),
  'headerless.csv': { ...csv(',', 4, 2, 'column 3', 10), hasHeader: false },
  'plain-list.txt': {
    ...csv(',', 1, 0, 'column 1', 16),
    format: 'lines',
    hasHeader: false,
    endsWithNewline: false,
  },
};

describe('good fixtures', () => {
  for (const [name, want] of Object.entries(expected)) {
    describe(name, () => {
      it('is detected', async () => {
        const layout = await open(fixture(name));
        const records = await collect(layout);
        expect({
          format: layout.format,
          delimiter: layout.delimiter,
          bom: layout.bom,
          lineEnding: layout.lineEnding,
          hasHeader: layout.hasHeader,
          columnCount: layout.columnCount,
          emailColumn: layout.emailColumn,
          emailColumnName: layout.emailColumnName,
          rows: records.length,
          endsWithNewline: layout.endsWithNewline,
        }).toEqual(want);
        expect(layout.displayName).toBe(fixture(name));
        expect(layout.file).toBe(fixture(name));
        expect(layout.header.length).toBe(want.hasHeader ? want.columnCount : 0);
        expect(layout.headerRaw === undefined).toBe(!want.hasHeader);
        for (const r of records) expect(r.fields).toHaveLength(want.columnCount);
      });

      it('reproduces the input byte for byte, minus blank lines', async () => {
        const bytes = readFileSync(fixture(name));
        const layout = await open(fixture(name));
        expect(layout.fingerprint).toBe(createHash('sha256').update(`${bytes.length}\n`).update(bytes).digest('hex'));
        expect(layout.size).toBe(bytes.length);
        const text = bytes.toString('utf8');
        const records = await collect(layout);
        const want = withoutBlankLines(text, layout.lineEnding);
        expect(Buffer.from(rebuild(layout, records))).toEqual(Buffer.from(want));
        expect(rebuildWithEol(layout, records)).toBe(want);
        // Line numbers are increasing and each record starts where its text says.
        const lines = text.replace(/^\ufeff/, '').split(layout.lineEnding);
        for (const r of records) expect(r.raw.startsWith(lines[r.line - 1]!)).toBe(true);
      });

      it('gives the same records whatever the chunk boundaries', async () => {
        const layout = await open(fixture(name));
        const whole = await collect(layout);
        for (const feedBytes of [1, 2, 3, 5, 7, 64]) {
          expect(await collect(layout, { feedBytes })).toEqual(whole);
        }
      });
    });
  }
});

describe('what the fixtures exercise', () => {
  it('plain list: no quote processing, spaces kept, whitespace-only lines skipped', async () => {
    const layout = await open(fixture('plain-list.txt'));
    const records = await collect(layout);
    const byLine = new Map(records.map((r) => [r.line, r.fields[0]]));
    expect(byLine.get(8)).toBe('"john doe"@example.com');
    expect(byLine.get(5)).toBe('  dave@example.com  ');
    expect(byLine.get(14)).toBe('zoë@example.de');
    expect(byLine.has(3)).toBe(false);
    expect(byLine.has(13)).toBe(false); // "   "
    expect(records.map((r) => r.line)).toEqual([1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 17, 18, 19]);
    expect(records.at(-1)!.eol).toBe('');
  });

  it('Brevo: semicolons, CRLF, blank lines and a quoted field containing the delimiter', async () => {
    const layout = await open(fixture('brevo.csv'));
    const records = await collect(layout);
    expect(records.map((r) => r.line)).toEqual([2, 3, 4, 6, 7, 8, 9, 11, 12, 13]);
    expect(records[1]!.fields[2]).toBe('Dupont; Jr');
    expect(records[1]!.raw).toBe('pierre.dupont@example.fr;Pierre;"Dupont; Jr";;No;Yes');
    expect(records[3]!.fields[0]).toBe(''); // empty email cell
    expect(records.every((r) => r.eol === '\r\n')).toBe(true);
    expect(layout.header).toEqual(['EMAIL', 'FIRSTNAME', 'LASTNAME', 'SMS', 'DOUBLE_OPT-IN', 'OPT_IN']);
  });

  it('Outlook: BOM, CRLF inside quoted fields, doubled quotes', async () => {
    const layout = await open(fixture('outlook.csv'));
    expect(layout.headerRaw!.startsWith('First Name,Middle Name,Last Name,')).toBe(true);
    const records = await collect(layout);
    expect(records.map((r) => r.line)).toEqual([2, 4, 5, 7, 8, 9, 10, 12, 13, 14]);
    const street = layout.header.indexOf('Home Street');
    expect(records[0]!.fields[street]).toBe('12 Rue de Rivoli\r\nApt 3');
    const notes = layout.header.indexOf('Notes');
    expect(records[2]!.fields[notes]).toBe('Spanish speaker.\r\nSays "hola" a lot.');
    expect(records[2]!.raw.endsWith('"Spanish speaker.\r\nSays ""hola"" a lot."')).toBe(true);
    expect(records[5]!.fields[0]).toBe('花子');
  });

  it('Mailchimp: a multi-line note, tags with doubled quotes, case-only duplicates', async () => {
    const layout = await open(fixture('mailchimp.csv'));
    const records = await collect(layout);
    const emails = records.map((r) => r.fields[0]);
    expect(emails).toContain('anna.schmidt@example.com');
    expect(emails).toContain('anna.schmidt@EXAMPLE.COM');
    expect(emails).toContain('Anna.Schmidt@example.com');
    expect(records[3]!.fields[21]).toBe('Called twice.\nPrefers Spanish');
    expect(records[4]!.line).toBe(7);
    expect(records[0]!.fields[22]).toBe('"Newsletter","Customer"');
    expect(records[0]!.raw.endsWith(',"""Newsletter"",""Customer"""')).toBe(true);
    expect(records.find((r) => r.fields[2] === '山田')?.fields[1]).toBe('太郎');
  });

  it('headerless CSV: the first row is data and the address column is found by content', async () => {
    const layout = await open(fixture('headerless.csv'));
    expect(layout.header).toEqual([]);
    const records = await collect(layout);
    expect(records[0]).toEqual({
      line: 1,
      raw: 'Jane,Doe,jane.doe@example.com,London',
      fields: ['Jane', 'Doe', 'jane.doe@example.com', 'London'],
      eol: '\n',
    });
    expect(records[2]!.fields[0]).toBe('Doe, Jr.');
  });
});
