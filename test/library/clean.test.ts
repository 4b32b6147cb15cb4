// The library API as a program uses it: `clean` and `createClient` imported from the public entry, run in-process
// against the sandbox over real HTTP on 127.0.0.1 (both answer shapes). Paths, streams and rows in; rows, files,
// events and results out; the two-stage stop through AbortSignals; typed errors with the CLI's exit codes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CleaningClient } from '../../src/api/cleaning.js';
import { HttpClient } from '../../src/api/http.js';
import {
  AuthError,
  type CleanEvent,
  type ClientOptions,
  clean,
  createClient,
  ExitCode,
  type ResultRow,
  UsageError,
} from '../../src/library/index.js';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';

const sandboxes = useSandboxes('mailclean-library-');

/** A cleaning account on a fresh sandbox, and the client options that reach it. */
async function account(
  shape: 'spec' | 'alt',
  more: SandboxOptions = {},
): Promise<{ sandbox: SandboxHandle; options: ClientOptions }> {
  const sandbox = await sandboxes.start({ plan: 'pro', shape, rate: { requests: 1_000, windowMs: 60_000 }, ...more });
  const signup = new CleaningClient(new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service' }));
  const { token } = await signup.signup({
    name: 'Lib',
    email: `lib-${shape}@example.com`,
    password: 'a long password',
  });
  return {
    sandbox,
    options: { cleanUrl: sandbox.url, token, dataDir: sandboxes.dataDir(), rate: '1000/1s', env: {} },
  };
}

const addresses = (n: number) => Array.from({ length: n }, (_, i) => `person${i}@example.com`);

function listFile(name: string, n: number): string {
  const path = join(sandboxes.dataDir(), '..', name);
  writeFileSync(
    path,
    `Name,Email\n${addresses(n)
      .map((a, i) => `Row ${i},${a}`)
      .join('\n')}\n`,
  );
  return path;
}

async function collect(rows: AsyncIterable<ResultRow>): Promise<ResultRow[]> {
  const all: ResultRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

describe.each(['spec', 'alt'] as const)('clean() with the cleaning service (%s answers)', (shape) => {
  it('yields every row of a file in input order, as objects with its results, paying each address once', async () => {
    const { sandbox, options } = await account(shape);
    const input = listFile('list.csv', 600);
    const run = clean(input, options);
    const rows = await collect(run);
    // More rows than the run holds for a slow reader: none lost, none out of order.
    expect(rows.map((r) => r.Email)).toEqual(addresses(600));
    expect(rows[0]).toMatchObject({ Name: 'Row 0', Email: 'person0@example.com', email_status: 'valid' });
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['email_reason', 'email_checked_by']));
    const result = await run.result;
    expect(result).toMatchObject({ kind: 'finished', exitCode: ExitCode.ok });
    expect(run.summary).toMatchObject({ rows: 600, unique: 600, spent: 600, checker: 'service' });
    // The result's summary counts rows by domain, though no file asks for it (the command line counts only for one).
    expect(run.summary?.topDomains[0]).toMatchObject({ domain: 'example.com', rows: 600 });
    expect(sandbox.stats().addressesCharged).toBe(600);

    // The same account's journal answers the same list again: nothing is paid twice.
    const again = clean(input, options);
    expect((await collect(again)).length).toBe(600);
    expect((await again.result).kind === 'finished' && again.summary?.spent).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(600);
  });

  it('takes rows from an async iterable of objects, and arrays and bare addresses from a client', async () => {
    const { sandbox, options } = await account(shape);
    async function* contacts() {
      for (const [i, email] of addresses(120).entries()) yield { id: i, email, note: i % 2 ? 'odd, "quoted"' : null };
    }
    const events: CleanEvent[] = [];
    const run = clean(contacts(), { ...options, onEvent: (e) => events.push(e) });
    const rows = await collect(run);
    expect(rows.map((r) => [r.id, r.email])).toEqual(addresses(120).map((a, i) => [String(i), a]));
    expect(rows[1]).toMatchObject({ note: 'odd, "quoted"', email_status: 'valid' });
    expect(rows[0]!.note).toBe('');
    expect(events).toContainEqual(expect.objectContaining({ type: 'scanned', displayName: 'rows', rows: 120 }));
    const told = events.filter((e) => e.type === 'progress' && e.change.checked !== undefined);
    expect(told.at(-1)).toMatchObject({ change: { checked: 120 } });
    expect(sandbox.stats().addressesCharged).toBe(120);

    const client = createClient(options);
    try {
      const arrays = await collect(client.clean([['email'], ['person0@example.com'], ['new@example.com']]));
      expect(arrays.map((r) => [r.email, r.email_status])).toEqual([
        ['person0@example.com', 'valid'],
        ['new@example.com', 'valid'],
      ]);
      const bare = client.clean(['new@example.com', 'another@example.com']);
      expect((await collect(bare)).map((r) => r.email)).toEqual(['new@example.com', 'another@example.com']);
      // The cache of the account answered what an earlier list paid for.
      expect((await bare.result).kind === 'finished' && bare.summary?.answered).toEqual({
        fromJournal: 0,
        fromCache: 1,
        sent: 1,
      });
    } finally {
      await client.close();
    }
    expect(sandbox.stats().addressesCharged).toBe(122);
  });

  it('the progress counts against what is left once the precheck decided what it could', async () => {
    const { sandbox, options } = await account(shape);
    const reserved = Array.from({ length: 10 }, (_, i) => `nobody${i}@site.test`);
    const events: CleanEvent[] = [];
    // A refused DNS port: only what needs no lookup (reserved TLDs) is decided, and that needs no answer.
    const dnsServers = '127.0.0.1:9';
    const run = clean([...addresses(60), ...reserved], { ...options, dnsServers, onEvent: (e) => events.push(e) });
    expect((await collect(run)).length).toBe(70);
    expect(sandbox.stats().addressesCharged).toBe(60);
    const progress = events.flatMap((e) => (e.type === 'progress' ? [e.change] : []));
    expect(progress.find((c) => c.phase === 'checking')).toMatchObject({ toCheck: 60 });
    expect(progress.filter((c) => c.checked !== undefined).at(-1)).toMatchObject({ checked: 60, toCheck: 60 });
  });

  it('reads a stream and writes the output file instead of yielding rows', async () => {
    const { options } = await account(shape);
    const output = join(sandboxes.dataDir(), '..', 'out.csv');
    const csv = `email\n${addresses(30).join('\n')}\n`;
    const run = clean(Readable.from([Buffer.from(csv)]), { ...options, output, summaryJson: `${output}.json` });
    expect(await collect(run)).toEqual([]);
    expect(await run.result).toMatchObject({ kind: 'finished', exitCode: 0, summary: { rows: 30, input: 'stream' } });
    const lines = readFileSync(output, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^email,email_status,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(addresses(30));
    expect(JSON.parse(readFileSync(`${output}.json`, 'utf8'))).toMatchObject({ rows: 30, exitCode: 0 });
  });

  it('a stop through its AbortSignal lets the answers in flight finish and be kept; the next run pays the rest', async () => {
    // Answers take from 20 to 400 ms: when the first is in, others are on their way.
    const { sandbox, options } = await account(shape, { faults: { latencyMs: [20, 400] } });
    const input = listFile('big.csv', 500);
    const stop = new AbortController();
    const events: CleanEvent[] = [];
    const run = clean(input, {
      ...options,
      concurrency: 4,
      signal: stop.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'progress' && (e.change.checked ?? 0) > 0) stop.abort();
      },
    });
    expect(await collect(run)).toEqual([]);
    expect(await run.result).toMatchObject({ kind: 'interrupted', exitCode: 130 });
    const paid = sandbox.stats().addressesCharged;
    // More than the first answer: those in flight when the stop came were answered, paid and kept.
    expect(paid).toBeGreaterThan(50);
    expect(paid).toBeLessThan(500);
    expect(events).toContainEqual({ type: 'interrupted', answersSaved: paid });
    // Every answer paid for was kept: resuming pays exactly the rest.
    const rest = clean(input, { ...options, earlierRun: 'resume' });
    expect((await collect(rest)).length).toBe(500);
    expect((await rest.result).kind === 'finished' && rest.summary?.answered).toEqual({
      fromJournal: paid,
      fromCache: 0,
      sent: 500 - paid,
    });
    expect(sandbox.stats().addressesCharged).toBe(500);
  });

  it('fails with typed errors carrying the exit codes of the CLI', async () => {
    const { options } = await account(shape);
    const input = listFile('list.csv', 10);
    const refused = clean(input, { ...options, token: 'not-a-token-of-this-service' });
    // The rows are still all written (unchecked), then the failure ends the iteration.
    const seen: ResultRow[] = [];
    const failure = await (async () => {
      for await (const row of refused) seen.push(row);
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthError);
    expect((failure as AuthError).exitCode).toBe(ExitCode.auth);
    expect(seen.map((r) => r.email_status)).toEqual(Array(10).fill('unchecked'));
    await expect(refused.result).rejects.toBeInstanceOf(AuthError);

    const bad = clean(input, { ...options, failWhen: 'invalid>>5' });
    await expect(bad.result).rejects.toBeInstanceOf(UsageError);
    await expect(bad.result).rejects.toMatchObject({ exitCode: ExitCode.usage, message: /^failWhen: / });
    await expect(clean(join(input, 'missing.csv'), options).result).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/no such file/),
    });
    await expect(collect(clean([{ email: 'a@example.com' }, { mail: 'b@example.com' }], options))).rejects.toThrow(
      /^rows: row 2 has "mail", which the first row has not/,
    );
  });

  it('fixTypos: a mistyped address is checked and paid as its fix, in email_fixed or (replace) in its cell', async () => {
    const { sandbox, options } = await account(shape);
    const list = [
      { email: 'ann@gmial.com', name: 'Ann typo' },
      { email: 'ann@gmail.com', name: 'Ann' },
      { email: 'cy@example.org', name: 'Cy' },
    ];
    const run = clean(list, { ...options, precheck: false, fixTypos: true });
    expect((await collect(run)).map((r) => [r.email, r.email_status, r.email_fixed])).toEqual([
      ['ann@gmial.com', 'valid', 'ann@gmail.com'],
      ['ann@gmail.com', 'valid', null],
      ['cy@example.org', 'valid', null],
    ]);
    expect(run.summary).toMatchObject({ spent: 2, fixes: { rows: 1, domains: { 'gmial.com → gmail.com': 1 } } });
    expect(sandbox.stats().addressesCharged).toBe(2);

    const replaced = await collect(clean(list, { ...options, precheck: false, fixTypos: 'replace' }));
    expect(replaced.map((r) => [r.email, r.email_original, 'email_fixed' in r])).toEqual([
      ['ann@gmail.com', 'ann@gmial.com', false],
      ['ann@gmail.com', null, false],
      ['cy@example.org', null, false],
    ]);
    expect(sandbox.stats().addressesCharged).toBe(2);
    const plain = await collect(clean(list, { ...options, precheck: false, fixTypos: false }));
    expect(plain.map((r) => ['email_fixed' in r, 'email_original' in r])).toEqual(Array(3).fill([false, false]));
    expect(sandbox.stats().addressesCharged).toBe(3);
    await expect(clean(list, { ...options, fixTypos: 'fix' as 'column' }).result).rejects.toMatchObject({
      exitCode: ExitCode.usage,
      message: 'fixTypos: "fix" is not column or replace',
    });
  });

  it('leaving the loop early stops the run and frees the list; a result awaited alone drops the rows', async () => {
    const { options } = await account(shape);
    // Several batches of the write pass: the stop is seen before the last.
    const input = listFile('list.csv', 3_000);
    const run = clean(input, options);
    let read = 0;
    for await (const _row of run) if (++read === 10) break;
    await expect(run.result).rejects.toMatchObject({ name: 'AbortError' });
    const whole = clean(input, options);
    expect(await whole.result).toMatchObject({ kind: 'finished', summary: { rows: 3_000, spent: 0 } });
    await expect(collect(whole)).rejects.toThrow(/rows were dropped/);
  });
});

describe('clean() without a service', () => {
  it('checks with the built-in engine, and a dry run counts without checking', async () => {
    const engineOptions = { dataDir: sandboxes.dataDir(), dnsServers: ['127.0.0.1:9'], env: {} };
    const rows = await collect(clean(['bad@example.invalid', 'not an address'], engineOptions));
    expect(rows.map((r) => [r.email, r.email_status, r.email_reason])).toEqual([
      ['bad@example.invalid', 'invalid', 'reserved_domain'],
      ['not an address', 'invalid', 'syntax'],
    ]);
    const dry = clean(['a@example.com', 'a@example.com'], { ...engineOptions, dryRun: true });
    expect(await dry.result).toMatchObject({ kind: 'dry-run', exitCode: 0, dryRun: { rows: 2, unique: 1 } });
  });

  it("escapeFormulas, as --escape-formulas: a CSV output's cells that would run as formulas get a '", async () => {
    const engineOptions = { dataDir: sandboxes.dataDir(), dnsServers: ['127.0.0.1:9'], env: {} };
    const rows = [{ email: 'bad@example.invalid', note: '=1+1' }];
    const output = join(sandboxes.dataDir(), '..', 'formulas.csv');
    for (const [escapeFormulas, cell] of [
      [true, `"'=1+1"`],
      [false, '=1+1'],
    ] as const) {
      const run = clean(rows, { ...engineOptions, output, escapeFormulas });
      expect(await run.result).toMatchObject({ kind: 'finished', exitCode: 0 });
      expect(readFileSync(output, 'utf8').split('\n')[1]).toMatch(`bad@example.invalid,${cell},invalid,`);
    }
  });
});
