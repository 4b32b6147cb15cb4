// Cells that hold their address inside something else (`Name <address>`, mailto:, Google Contacts' ` ::: `): the address
// inside is checked, once per unique address, by the service (both answer shapes) and by the built-in engine; the cell
// is written back untouched and `email_checked` names the address checked.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULT_COLUMNS, SERVICE_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import type { SandboxHandle } from '../../../src/sandbox/server.js';
import { TestHome } from '../../helpers/cli.js';
import { startDnsServer, type TestDnsServer } from '../../helpers/dns-server.js';
import { registered, useSandboxes } from '../../helpers/sandbox.js';

const RESULTS: readonly string[] = RESULT_COLUMNS;
/** What a run with the service appends: the six, then the service's own status word. */
/** With the service and the precheck: the provider its lookups name, then the service's columns. */
const SERVICE = [...RESULTS, 'email_provider', ...SERVICE_COLUMNS];

// Every line but the header, as written: the output must begin each row with exactly this text.
const LINES = [
  'email,name',
  'Ada Lovelace <ada@example.com>,Ada',
  '"""Lovelace, Ada"" <ada@EXAMPLE.com>",Ada quoted',
  'mailto:x@mailinator.com?subject=Hi,Mailto',
  'not-an-address ::: x@mailinator.com ::: bob@example.org,Google',
  'ada@example.com,Plain',
  'bob@example.org,Bob',
  'Nobody <not-an-address>,Broken',
];

type Row = Record<string, string | boolean | null>;

describe.each(['spec', 'alt'] as const)('clean: an address inside the cell, with the service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  let input: string;
  beforeEach(async () => {
    home = new TestHome();
    sandbox = await sandboxes.start({ shape, plan: 'unlimited' });
    await registered(home, sandbox);
    input = join(home.dir, 'list.csv');
    writeFileSync(input, `${LINES.join('\n')}\n`);
  });
  afterEach(() => home.cleanup());

  it('checks the address inside, once per address; the cell untouched, email_checked names it; the dry run counts the same', async () => {
    const dry = await home.run(['clean', input, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      rows: 7,
      unique: 3,
      duplicates: 3,
      malformed: 1,
      precheckSaves: 1,
      toSend: 2,
      extracted: 4,
    });

    const out = join(home.dir, 'out.csv');
    const summary = join(home.dir, 'summary.json');
    const res = await home.run(['clean', input, '-o', out, '--summary-json', summary]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('4 email cells hold their address inside a name, a mailto: link or a " ::: " list');
    // ada@example.com and bob@example.org: one charge each, whatever wraps them; x@mailinator.com is decided by the
    // precheck (a disposable domain needs no DNS).
    expect(sandbox.stats().addressesCharged).toBe(2);
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ unique: 3, malformed: 1, extracted: 4 });

    const text = readFileSync(out, 'utf8');
    const lines = text.split('\n');
    expect(lines[0]).toBe(`email,name,${SERVICE.join(',')},email_checked`);
    LINES.slice(1).forEach((line, i) => expect(lines[i + 1]!.startsWith(`${line},`), line).toBe(true));
    const rows = (parse(text, { columns: true }) as Array<Record<string, string>>).map((r) => [
      r.name,
      r.email_status,
      r.email_disposable,
      r.email_reason,
      r.email_checked,
    ]);
    expect(rows).toEqual([
      ['Ada', 'valid', 'false', '', 'ada@example.com'],
      ['Ada quoted', 'valid', 'false', '', 'ada@EXAMPLE.com'],
      ['Mailto', 'risky', 'true', 'disposable', 'x@mailinator.com'],
      ['Google', 'risky', 'true', 'disposable', 'x@mailinator.com'],
      ['Plain', 'valid', 'false', '', ''],
      ['Bob', 'valid', 'false', '', ''],
      ['Broken', 'invalid', '', 'syntax', ''],
    ]);
  });

  it('JSON: email_checked is the address or null; a second clean of the output replaces the column, never doubles it', async () => {
    // --no-precheck: all three addresses go to the service and this list's journal, so the second run of the list
    // below finds it finished (the precheck's decisions are not journaled).
    const res = await home.run(['clean', input, '--format', 'ndjson', '--no-precheck']);
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Row);
    // Without the precheck nothing looks the domains up: no email_provider.
    expect(Object.keys(rows[0]!)).toEqual(['email', 'name', ...RESULTS, ...SERVICE_COLUMNS, 'email_checked']);
    expect(rows.map((r) => [r.email, r.email_checked])).toEqual([
      ['Ada Lovelace <ada@example.com>', 'ada@example.com'],
      ['"Lovelace, Ada" <ada@EXAMPLE.com>', 'ada@EXAMPLE.com'],
      ['mailto:x@mailinator.com?subject=Hi', 'x@mailinator.com'],
      ['not-an-address ::: x@mailinator.com ::: bob@example.org', 'x@mailinator.com'],
      ['ada@example.com', null],
      ['bob@example.org', null],
      ['Nobody <not-an-address>', null],
    ]);

    const once = join(home.dir, 'once.csv');
    expect((await home.run(['clean', input, '-o', once, '--no-precheck'])).code).toBe(0);
    const twice = await home.run(['clean', once]);
    expect(twice.code, twice.stderr).toBe(0);
    const header = twice.stdout.split('\n')[0]!.split(',');
    expect(header).toEqual(['email', 'name', ...SERVICE, 'email_checked']);
    expect(sandbox.stats().addressesCharged).toBe(3);
  });

  it('a list where every cell is an address keeps its columns: no email_checked', async () => {
    writeFileSync(input, 'email,name\nada@example.com,Ada\nnot-an-address,Bad\n');
    const csv = await home.run(['clean', input]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe(`email,name,${SERVICE.join(',')}`);
    expect(csv.stderr).not.toContain('email_checked');
    const json = await home.run(['clean', input, '--format', 'json']);
    expect(Object.keys((JSON.parse(json.stdout) as Row[])[0]!)).toEqual(['email', 'name', ...SERVICE]);
  });
});

describe('clean --local: an address inside the cell, with the built-in engine', () => {
  let dns: TestDnsServer;
  let home: TestHome;
  beforeAll(async () => {
    dns = await startDnsServer({
      com: { NS: ['ns.example.'] },
      'mail.example.com': { MX: [{ preference: 10, exchange: 'mx.mail.example.com' }] },
      'mx.mail.example.com': { A: ['127.0.0.1'] },
    });
    home = new TestHome();
  });
  afterAll(async () => {
    await dns.close();
    home.cleanup();
  });

  it('checks the address inside; email_checked comes after email_suggestion; the dry run counts the same', async () => {
    const input = join(home.dir, 'local.csv');
    writeFileSync(
      input,
      [
        'Contact;Name',
        'Ann <ann@mail.example.com>;Ann',
        'MAILTO:ann@mail.example.com;Ann',
        'ed@no-such-domain.com ::: ann@mail.example.com;Ed',
        'Nobody <nobody>;No',
        '',
      ].join('\n'),
    );
    const dry = await home.run(['clean', input, '--local', '--dns-server', dns.server, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      checker: 'local',
      rows: 4,
      unique: 2,
      duplicates: 1,
      malformed: 1,
      extracted: 3,
    });

    const res = await home.run(['clean', input, '--local', '--dns-server', dns.server, '--format', 'json']);
    expect(res.code, res.stderr).toBe(0);
    const rows = JSON.parse(res.stdout) as Row[];
    expect(Object.keys(rows[0]!)).toEqual([
      'Contact',
      'Name',
      ...RESULTS,
      'email_suggestion',
      'email_provider',
      'email_checked',
    ]);
    expect(rows.map((r) => [r.Contact, r.email_status, r.email_reason, r.email_checked])).toEqual([
      ['Ann <ann@mail.example.com>', 'valid', null, 'ann@mail.example.com'],
      ['MAILTO:ann@mail.example.com', 'valid', null, 'ann@mail.example.com'],
      // Of several, the first well-formed one: one address per row.
      ['ed@no-such-domain.com ::: ann@mail.example.com', 'invalid', 'no_domain', 'ed@no-such-domain.com'],
      ['Nobody <nobody>', 'invalid', 'syntax', null],
    ]);
  });
});
