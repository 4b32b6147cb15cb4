// --column, stdin spooling, pipes, header and email-column detection, line endings, and iteration behaviour.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInput } from '../../../../src/clean/scan/input/index.js';
import { collect, fixture, open, put, readRecords, tempDir, usageError } from './helpers.js';

let tmp: { dir: string; remove: () => void };
beforeAll(() => {
  tmp = tempDir();
});
afterAll(() => tmp.remove());

describe('--column', () => {
  // Two columns of addresses, so that --column is what chooses.
  const twoColumns = () =>
    put(tmp.dir, 'two.csv', 'Name,Work E-mail,home_email,Notes\nAda,ada@work.example,ada@home.example,x\n');

  it('by name, ignoring case, spaces, _ and -', async () => {
    const path = twoColumns();
    expect((await open(path, { column: 'work e-mail' })).emailColumn).toBe(1);
    expect((await open(path, { column: 'WORK_EMAIL' })).emailColumn).toBe(1);
    expect((await open(path, { column: ' home-email ' })).emailColumnName).toBe('home_email');
  });

  it('by 1-based number', async () => {
    const layout = await open(twoColumns(), { column: '3' });
    expect(layout.emailColumn).toBe(2);
    expect(layout.emailColumnName).toBe('home_email');
    const headerless = await open(fixture('headerless.csv'), { column: '3' });
    expect(headerless.emailColumn).toBe(2);
    expect(headerless.emailColumnName).toBe('column 3');
  });

  it('overrides detection, even where none would be found', async () => {
    // Fewer than half its cells hold an address: detection passes it by, --column takes it.
    const sparse = put(tmp.dir, 'sparse.csv', 'Name,Contact\nAda,ada@example.com\nBob,+1 555 0101\nCy,n/a\n');
    expect((await open(sparse, { column: 'Contact' })).emailColumn).toBe(1);
    const google = await open(fixture('google-contacts.csv'), { column: 'E-mail 2 - Value' });
    expect(google.emailColumn).toBe(32);
  });

  it('a column with no address in the rows read is refused, naming the column that has them (every row would be invalid)', async () => {
    const mailchimp = fixture('mailchimp.csv');
    const err = await usageError(open(mailchimp, { column: '2' }));
    expect(err.message).toMatch(
      new RegExp(`^--column 2: "First Name" holds no address in the first \\d+ rows of ${mailchimp}$`),
    );
    expect(err.hint).toBe(
      'the addresses look to be in column 1 ("Email Address"): pass --column 1 (columns are counted from 1)',
    );
    expect(err.exitCode).toBe(2);
    const none = fixture('bad/no-email-column.csv');
    const city = await usageError(open(none, { column: 'City' }));
    expect(city.message).toMatch(/^--column City: "City" holds no address in the first \d+ rows of /);
    expect(city.hint).toBe('pass the column that holds the addresses (columns: Name, Phone, City)');
  });

  it('an unknown name lists the columns', async () => {
    const path = fixture('hubspot.csv');
    const err = await usageError(open(path, { column: 'Mail Addr' }));
    expect(err.message).toBe(
      `--column Mail Addr: no such column in ${path} (columns: Record ID, First Name, Last Name, Email Domain, Email, Phone Number, Company Name, Lifecycle Stage, Contact owner, Create Date, Last Activity Date, Marketing contact status)`,
    );
    expect(err.exitCode).toBe(2);
  });

  it('a number out of range', async () => {
    const path = fixture('brevo.csv');
    for (const n of ['0', '7', '99']) {
      const err = await usageError(open(path, { column: n }));
      expect(err.message).toBe(
        `--column ${n}: ${path} has 6 columns (EMAIL, FIRSTNAME, LASTNAME, SMS, DOUBLE_OPT-IN, OPT_IN)`,
      );
      expect(err.hint).toBe('pass a number from 1 to 6, or a column name');
    }
  });

  it('a name when there is no header', async () => {
    const path = fixture('headerless.csv');
    const err = await usageError(open(path, { column: 'email' }));
    expect(err.message).toBe(
      `--column email: ${path} has no header row, so columns have no names (column 1, column 2, column 3, column 4)`,
    );
  });

  it('long column lists are shortened', async () => {
    const path = fixture('outlook.csv');
    const err = await usageError(open(path, { column: 'nope' }));
    expect(err.message).toMatch(/\(columns: First Name, Middle Name, .*, and 36 more\)$/);
  });
});

describe('stdin', () => {
  it('is spooled to a private file, read like a file, and cleaned up', async () => {
    const spoolDir = join(tmp.dir, 'spool', 'nested');
    const stdin = Readable.from([Buffer.from('Email;Name\r\n'), Buffer.from('a@b.com;Zoë\r\n\r\nc@d.com;Łukasz\r\n')]);
    const layout = await openInput({ path: '-', stdin, spoolDir });
    expect(layout.displayName).toBe('stdin');
    expect(layout.file.startsWith(spoolDir)).toBe(true);
    expect(statSync(layout.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(layout.file, 'utf8')).toBe('Email;Name\r\na@b.com;Zoë\r\n\r\nc@d.com;Łukasz\r\n');
    expect(layout.delimiter).toBe(';');
    expect(layout.lineEnding).toBe('\r\n');
    // Two passes over the spooled copy give the same records.
    const first = await collect(layout);
    expect(first.map((r) => [r.line, r.fields[1]])).toEqual([
      [2, 'Zoë'],
      [4, 'Łukasz'],
    ]);
    expect(await collect(layout)).toEqual(first);
    await layout.cleanup();
    expect(existsSync(layout.file)).toBe(false);
    await layout.cleanup(); // twice is harmless
  });

  it('errors name stdin and leave no spool file behind', async () => {
    const spoolDir = join(tmp.dir, 'spool-err');
    const empty = new PassThrough();
    empty.end();
    expect((await usageError(openInput({ path: '-', stdin: empty, spoolDir }))).message).toBe(
      'stdin:1: the input is empty',
    );
    const headerOnly = Readable.from([Buffer.from('Email\n')]);
    expect((await usageError(openInput({ path: '-', stdin: headerOnly, spoolDir }))).message).toBe(
      'stdin:1: the input has a header but no rows',
    );
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('errors while reading name stdin with the line', async () => {
    const stdin = Readable.from([Buffer.from('Email,Name\na@b.com,A\nc@d.com\n')]);
    const layout = await openInput({ path: '-', stdin, spoolDir: join(tmp.dir, 'spool-ragged'), strict: true });
    try {
      expect((await usageError(collect(layout))).message).toBe('stdin:3: 1 field where the header has 2');
    } finally {
      await layout.cleanup();
    }
  });

  it('a stream that fails before it is read is a UsageError too', async () => {
    const stdin = new PassThrough();
    stdin.destroy(Object.assign(new Error('gone'), { code: 'EPIPE' }));
    const spoolDir = join(tmp.dir, 'spool-early');
    expect((await usageError(openInput({ path: '-', stdin, spoolDir }))).message).toMatch(
      /^stdin: cannot read the input \((EPIPE|ERR_STREAM_PREMATURE_CLOSE)\)$/,
    );
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('a read error on stdin is a UsageError', async () => {
    const stdin = new PassThrough();
    stdin.write('Email\na@b.com\n');
    // Fail once the spooler is reading, as a broken pipe would.
    stdin.once('resume', () => setImmediate(() => stdin.destroy(Object.assign(new Error('boom'), { code: 'EIO' }))));
    const spoolDir = join(tmp.dir, 'spool-eio');
    expect((await usageError(openInput({ path: '-', stdin, spoolDir }))).message).toBe(
      'stdin: cannot read the input (EIO)',
    );
    expect(readdirSync(spoolDir)).toEqual([]);
  });
});

describe('a named pipe given as a path', () => {
  it.skipIf(process.platform === 'win32')('is spooled so that it can be read twice', async () => {
    const fifo = join(tmp.dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    writer.end('Email\na@b.com\nc@d.com\n');
    const layout = await open(fifo, { spoolDir: join(tmp.dir, 'spool-fifo') });
    expect(layout.displayName).toBe(fifo);
    expect(layout.file).not.toBe(fifo);
    expect((await collect(layout)).map((r) => r.raw)).toEqual(['a@b.com', 'c@d.com']);
    expect((await collect(layout)).length).toBe(2);
    await layout.cleanup();
    expect(existsSync(layout.file)).toBe(false);
  });
});

describe('header and email column detection', () => {
  const detect = async (name: string, text: string) => open(put(tmp.dir, name, text));

  it('a first row with an address is data', async () => {
    const layout = await detect('data-first.csv', 'Ann,ann@example.com\nBob,bob@example.com\n');
    expect(layout.hasHeader).toBe(false);
    expect(layout.emailColumn).toBe(1);
    expect((await collect(layout)).length).toBe(2);
  });

  it('a plain list with a header line', async () => {
    const layout = await detect('list-head.txt', 'email\nann@example.com\n"john doe"@example.com\n');
    expect(layout).toMatchObject({
      format: 'lines',
      hasHeader: true,
      header: ['email'],
      headerRaw: 'email',
      emailColumnName: 'email',
    });
    expect((await collect(layout)).map((r) => r.fields[0])).toEqual(['ann@example.com', '"john doe"@example.com']);
  });

  it('a plain list whose first line is a malformed address has no header', async () => {
    const layout = await detect('list-bad-first.txt', 'bob@\nann@example.com\n');
    expect(layout.hasHeader).toBe(false);
    expect((await collect(layout)).length).toBe(2);
  });

  it('a one-column CSV with every value quoted is CSV, not lines', async () => {
    const layout = await detect('quoted-one.csv', '"Email"\n"ann@example.com"\n"bob, not@example.com"\n');
    expect(layout.format).toBe('csv');
    expect((await collect(layout)).map((r) => r.fields[0])).toEqual(['ann@example.com', 'bob, not@example.com']);
  });

  it('exact names beat names merely containing "email"; values decide among the rest', async () => {
    expect((await detect('n1.csv', 'Email Type,Work Email,Name\nhome,a@b.com,A\n')).emailColumnName).toBe('Work Email');
    expect(
      (await detect('n2.csv', 'Email Opt In,Contact Email Field,Name\nyes,a@b.com,A\nno,c@d.com,C\n')).emailColumn,
    ).toBe(1);
    expect((await detect('n3.csv', 'E-Mail 1 - Type,E-Mail 1 - Value\n* Home,a@b.com\n')).emailColumn).toBe(1);
    expect((await detect('n4.csv', 'Name,MAIL\nA,a@b.com\n')).emailColumnName).toBe('MAIL');
    expect((await detect('n5.csv', 'Name,Primary Email,E-mail Address\nA,a@b.com,c@d.com\n')).emailColumnName).toBe(
      'E-mail Address',
    );
  });

  it('no known name: the column whose values look like addresses', async () => {
    const layout = await detect(
      'content.csv',
      'Who,Contact,Note\nA,a@b.com,hi\nB,,x\nC,c@d.com,write to z@z.com today\nD,d@e.com,\n',
    );
    expect(layout.emailColumn).toBe(1);
    expect(layout.emailColumnName).toBe('Contact');
  });

  it('not more than half looking like addresses is not enough', async () => {
    const path = put(tmp.dir, 'half.csv', 'Who,Contact\nA,a@b.com\nB,phone\n');
    expect((await usageError(open(path))).message).toBe(`${path}:1: no email column found (columns: Who, Contact)`);
  });

  it('the delimiter with consistent counts wins over one that merely appears', async () => {
    const layout = await detect('semi.csv', 'Email;Name;Notes\na@b.com;Smith, John;x, y, z\nc@d.com;Doe, Jane;w\n');
    expect(layout.delimiter).toBe(';');
    expect(layout.columnCount).toBe(3);
  });
});

describe('line endings and records', () => {
  it('mixed line endings: each record keeps its own', async () => {
    const path = put(tmp.dir, 'mixed.csv', 'Email,N\r\na@b.com,1\nc@d.com,2\r\ne@f.com,3');
    const layout = await open(path);
    expect(layout.lineEnding).toBe('\r\n');
    expect(layout.endsWithNewline).toBe(false);
    const records = await collect(layout);
    expect(records.map((r) => r.eol)).toEqual(['\n', '\r\n', '']);
    expect(records.map((r) => r.raw)).toEqual(['a@b.com,1', 'c@d.com,2', 'e@f.com,3']);
  });

  it('a carriage return before the end of the file is data, not a line ending', async () => {
    const path = put(tmp.dir, 'stray-cr.csv', 'Email,N\na@b.com,1\r');
    const records = await collect(await open(path));
    expect(records).toEqual([{ line: 2, raw: 'a@b.com,1\r', fields: ['a@b.com', '1\r'], eol: '' }]);
  });

  it('rows of empty fields are kept; empty and whitespace-only lines are not', async () => {
    const path = put(tmp.dir, 'empties.csv', 'Email,Name\n,\n\n   \na@b.com,A\n"",""\n');
    const records = await collect(await open(path));
    expect(records.map((r) => [r.line, r.raw])).toEqual([
      [2, ','],
      [5, 'a@b.com,A'],
      [6, '"",""'],
    ]);
  });

  it('a quote inside an unquoted field is kept as a character', async () => {
    const path = put(tmp.dir, 'inner-quote.csv', 'Email,Name\na@b.com,John "Johnny" Doe\n');
    const records = await collect(await open(path));
    expect(records[0]!.fields[1]).toBe('John "Johnny" Doe');
  });

  it('records straddling many chunk boundaries, with multi-byte text and quoted CRLFs, are exact', async () => {
    let text = '\ufeffEmail,Name,Notes\r\n';
    for (let i = 0; i < 40000; i++) {
      text += `p${i}@example.com,Zoë 山田 ${i},${i % 7 === 0 ? `"multi\r\nline, ""quoted"" ${i}"` : `note ${i}`}\r\n`;
    }
    const path = put(tmp.dir, 'big.csv', text);
    const layout = await open(path);
    expect(layout.bom).toBe(true);
    const records = await collect(layout);
    expect(records).toHaveLength(40000);
    expect(layout.headerRaw).toBe('Email,Name,Notes');
    const rebuilt = Buffer.from(`\ufeff${[layout.headerRaw, ...records.map((r) => r.raw)].join('\r\n')}\r\n`);
    expect(rebuilt.equals(readFileSync(path))).toBe(true);
    // Record i starts after 1 header line plus i lines, plus one extra for every earlier multi-line record.
    for (const i of [0, 1, 7, 8, 39999]) expect(records[i]!.line).toBe(2 + i + Math.ceil(i / 7));
    expect(records[7]!.fields[2]).toBe('multi\r\nline, "quoted" 7');
  });
});

describe('iteration', () => {
  it('stopping early releases the file and a new pass starts from the top', async () => {
    const layout = await open(fixture('mailchimp.csv'));
    let n = 0;
    for await (const r of readRecords(layout)) {
      expect(r.line).toBe(2);
      if (++n === 1) break;
    }
    expect((await collect(layout))[0]!.line).toBe(2);
  });

  it('nothing is read until iteration starts', async () => {
    const path = put(tmp.dir, 'lazy.csv', 'Email\na@b.com\n');
    const layout = await open(path);
    const iterable = readRecords(layout);
    put(tmp.dir, 'lazy.csv', 'Email\nc@d.com\n');
    expect((await collect(layout)).map((r) => r.raw)).toEqual(['c@d.com']);
    const it = iterable[Symbol.asyncIterator]();
    expect((await it.next()).value?.raw).toBe('c@d.com');
    await it.return(undefined);
  });
});

describe('an output of mailclean as input', () => {
  const results = 'email_status,email_valid,email_disposable,email_valid_domain,email_reason,email_checked_at';

  it('knows its own columns, wherever they are, and never takes one for the email column', async () => {
    // "Contact" is not a known name and holds addresses; so does email_suggestion, which must not win.
    const path = put(
      tmp.dir,
      'again.csv',
      `Name,email_suggestion,Contact,${results}\nAnn,ann@gmail.com,ann@gmial.com,invalid,false,,false,no_domain,\nBob,,bob@example.com,valid,true,false,true,,2026-01-01\n`,
    );
    const layout = await open(path);
    expect(layout.ownColumns).toEqual([1, 3, 4, 5, 6, 7, 8]);
    expect(layout.emailColumnName).toBe('Contact');
    const err = await usageError(open(path, { column: 'email_suggestion' }));
    expect(err.message).toBe(
      '--column email_suggestion: email_suggestion holds the results of an earlier run (they are replaced)',
    );
    expect((await usageError(open(path, { column: '4' }))).exitCode).toBe(2);
  });

  it("needs all six result names: a lone email_status is the user's own column", async () => {
    const path = put(tmp.dir, 'theirs.csv', 'email,email_status\na@example.com,subscribed\n');
    expect((await open(path)).ownColumns).toEqual([]);
  });
});

describe("Excel's sep= first line", () => {
  it('names the delimiter and is neither the header nor a row; line numbers count it', async () => {
    // Without the line, "," would win the sniffing (more fields), and "sep=" would be the header.
    const path = put(tmp.dir, 'sep.csv', 'sep=;\nEmail;Name,Town\na@b.com;Ann,Paris\nc@d.com;Cy,Rome\n');
    const layout = await open(path);
    expect(layout).toMatchObject({
      format: 'csv',
      delimiter: ';',
      sepLine: 'sep=;',
      hasHeader: true,
      header: ['Email', 'Name,Town'],
      headerRaw: 'Email;Name,Town',
    });
    const records = await collect(layout);
    expect(records.map((r) => [r.line, r.raw])).toEqual([
      [3, 'a@b.com;Ann,Paris'],
      [4, 'c@d.com;Cy,Rome'],
    ]);
    expect(await collect(layout, { feedBytes: 1 })).toEqual(records);
  });

  it('quoted, in any case, after a BOM, with CRLF; tab and pipe too', async () => {
    const quoted = await open(put(tmp.dir, 'sep-q.csv', '\ufeff"SEP=,"\r\nEmail,Name\r\na@b.com,A\r\n'));
    expect(quoted).toMatchObject({
      delimiter: ',',
      sepLine: '"SEP=,"',
      bom: true,
      lineEnding: '\r\n',
      header: ['Email', 'Name'],
    });
    expect((await collect(quoted)).map((r) => r.line)).toEqual([3]);
    expect((await open(put(tmp.dir, 'sep-t.csv', 'sep=\t\nEmail\tName\na@b.com\tA\n'))).delimiter).toBe('\t');
    expect(await open(put(tmp.dir, 'sep-p.csv', 'sep=|\na@b.com|A\n'))).toMatchObject({
      delimiter: '|',
      hasHeader: false,
      columnCount: 2,
    });
    // Not a delimiter mailclean reads: an ordinary first line.
    expect((await open(put(tmp.dir, 'sep-x.csv', 'sep=:\na@b.com\nc@d.com\n'))).sepLine).toBeUndefined();
  });

  it('errors point at the right line', async () => {
    const ragged = put(tmp.dir, 'sep-ragged.csv', 'sep=;\nEmail;Name\na@b.com;A\nc@d.com\n');
    expect((await usageError(collect(await open(ragged, { strict: true })))).message).toBe(
      `${ragged}:4: 1 field where the header has 2`,
    );
    const quote = put(tmp.dir, 'sep-quote.csv', 'sep=;\nEmail;Name\na@b.com;"A\n');
    expect((await usageError(open(quote))).message).toBe(`${quote}:3: a quoted field is never closed`);
    const only = put(tmp.dir, 'sep-only.csv', 'sep=;');
    expect((await usageError(open(only))).message).toMatch(/the file is empty$/);
  });
});
