// The library refuses what it cannot do, before anything is read or spent: an option it does not know (a misspelt
// `ouput` would throw the rows away), a value of another type, an input or a list that is none. Each is a UsageError
// (exit code 2) naming the option, as JavaScript callers have no compiler to tell them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CleanOptions, clean, createClient, ExitCode, UsageError, verify } from '../../src/library/index.js';

describe('the library checks its calls', () => {
  let dir: string;
  let list: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-options-'));
    list = join(dir, 'one.csv');
    writeFileSync(list, 'email\nada@example.com\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const offline = { env: { MAILCLEAN_DNS_SERVERS: '127.0.0.1:9' } } as const;

  const usage = (run: () => unknown, message: string | RegExp, hint?: string) => {
    let thrown: unknown;
    try {
      run();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(ExitCode.usage);
    if (typeof message === 'string') expect((thrown as UsageError).message).toBe(message);
    else expect((thrown as UsageError).message).toMatch(message);
    if (hint) expect((thrown as UsageError).hint).toBe(hint);
  };

  it('a misspelt option is named, with what it likely meant; nothing is written', () => {
    const options = { ouput: join(dir, 'x.csv'), local: true } as unknown as CleanOptions;
    usage(() => clean(list, options), 'clean: no option "ouput"', 'did you mean output?');
    usage(
      () => createClient({ cleanurl: 'http://x' } as never),
      'createClient: no option "cleanurl"',
      'did you mean cleanUrl?',
    );
    usage(
      () => createClient().clean(list, { fromat: 'csv' } as never),
      'clean: no option "fromat"',
      'did you mean format?',
    );
  });

  it('a value of another type is named with the type it must be', () => {
    usage(() => clean(list, { maxSpend: '10' } as never), 'clean: maxSpend must be a number, not a string');
    usage(() => clean(list, { local: 'yes' } as never), 'clean: local must be a boolean, not a string');
    usage(() => clean(list, { signal: {} } as never), 'clean: signal must be an AbortSignal, not an object');
    usage(() => clean(list, null as never), 'clean: its options must be an object, not null');
  });

  it('a value outside its choices or range is named, with what it may be, before anything is read', async () => {
    const refused = (options: object, message: string) =>
      expect(clean(list, { ...options, ...offline } as never).result).rejects.toMatchObject({
        exitCode: ExitCode.usage,
        message,
      });
    const encodings = 'utf-8, utf-16le, utf-16be, windows-1252, latin1';
    await refused({ encoding: 'utf8' }, `encoding: "utf8" is not one of ${encodings}`);
    await refused({ earlierRun: 'Restart' }, 'earlierRun: "Restart" is not one of resume, restart');
    await refused({ format: 'tsv' }, 'format: "tsv" is not one of csv, json, ndjson, xlsx');
    for (const smtpPort of [0, 70_000, 2.5]) {
      await expect(verify(['a@x.org'], { local: true, smtp: true, smtpPort, ...offline })).rejects.toMatchObject({
        name: 'UsageError',
        message: `smtpPort: "${smtpPort}" is not a whole number from 1 to 65535`,
      });
      await refused(
        { local: true, smtp: true, smtpPort },
        `smtpPort: "${smtpPort}" is not a whole number from 1 to 65535`,
      );
    }
  });

  it('an input that is none, and a verify list that is not a list of strings', async () => {
    await expect(clean(null as never, { local: true, ...offline }).result).rejects.toMatchObject({
      name: 'UsageError',
      message: 'input: give a path, a stream, bytes or rows, not null',
    });
    await expect(verify('a@x.org' as never, { local: true })).rejects.toMatchObject({
      name: 'UsageError',
      message: 'verify: addresses must be a list of strings',
    });
    await expect(verify(null as never)).rejects.toBeInstanceOf(UsageError);
    await expect(verify(['a@x.org'], { maxAge: true } as never)).rejects.toThrow(
      'verify: maxAge must be a string or a number, not a boolean',
    );
    const client = createClient({ ...offline });
    try {
      await expect(client.verify([1] as never)).rejects.toThrow('verify: addresses must be a list of strings');
    } finally {
      await client.close();
    }
  });
});
