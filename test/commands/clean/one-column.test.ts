// A one-column list (a bare list of addresses, with or without a header) comes back as the other lists do: its
// header text and its BOM or encoding kept, `email` only where it had no header.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESULT_COLUMNS } from '../../../src/clean/verdict/verdict.js';
import { useHome } from '../../helpers/cli.js';
import { closedUdpPort } from '../../helpers/dns-server.js';

const RESULTS = [...RESULT_COLUMNS, 'email_suggestion', 'email_provider'].join(',');

describe('clean: one-column lists', () => {
  const home = useHome();
  const run = async (input: string, ...flags: string[]) => {
    const res = await home().run(['clean', input, ...flags], {
      env: { MAILCLEAN_DNS_SERVERS: `127.0.0.1:${await closedUdpPort()}` },
    });
    expect(res.code, res.stderr).toBe(0);
    return res;
  };

  it.each([
    ['UTF-8 with a BOM', Buffer.from('\uFEFFEmail Address\nann@example.com\nbob@example.org\n')],
    ['UTF-16 with a BOM', Buffer.from('\uFEFFEmail Address\r\nann@example.com\r\nbob@example.org\r\n', 'utf16le')],
  ])('%s: the header keeps its text, the output its BOM', async (_, bytes) => {
    const input = join(home().dir, 'list.txt');
    writeFileSync(input, bytes);
    const out = join(home().dir, 'out.csv');
    await run(input, '-o', out);
    const lines = readFileSync(out, 'utf8').split(/\r?\n/);
    expect(lines[0]).toBe(`\uFEFFEmail Address,${RESULTS}`);
    expect(lines.slice(1, 3).map((l) => l.split(',')[0])).toEqual(['ann@example.com', 'bob@example.org']);
  });

  it('JSON keys it by its header; without a header the column is `email`, and no BOM is added', async () => {
    const input = join(home().dir, 'list.txt');
    writeFileSync(input, 'Email Address\nann@example.com\n');
    const json = await run(input, '--format', 'ndjson');
    expect(JSON.parse(json.stdout)).toMatchObject({ 'Email Address': 'ann@example.com', email_status: 'unknown' });
    writeFileSync(input, 'ann@example.com\nbob@example.org\n');
    const csv = await run(input);
    expect(csv.stdout.split('\n')[0]).toBe(`email,${RESULTS}`);
  });
});
