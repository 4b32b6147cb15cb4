// A service that keeps answering 429 for its rate limit, or asks for an absurd wait: the run stops in bounded
// time, writes its outputs and says how to resume, instead of waiting forever.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { type TestServer, useServers } from '../../helpers/http-server.js';

const home = useHome();
const serve = useServers();
let server: TestServer | undefined;

/** A cleaning service that refuses every check with 429 and these headers; counts the refusals. */
async function refusing(headers: Record<string, string>): Promise<{ refused: () => number }> {
  let refused = 0;
  server = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      refused++;
      res.writeHead(429, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ message: 'Too Many Attempts.' }));
    });
  });
  return { refused: () => refused };
}

async function clean(): Promise<{ code: number; stderr: string; out: string }> {
  const input = join(home().dir, 'list.csv');
  writeFileSync(input, `email\n${Array.from({ length: 30 }, (_, i) => `r${i}@example.com`).join('\n')}\n`);
  const out = join(home().dir, 'out.csv');
  const res = await home().run(['clean', input, '-o', out, '--summary-json', join(home().dir, 's.json')], {
    env: { MAILCLEAN_CLEAN_URL: server!.url, MAILCLEAN_CLEAN_TOKEN: 'token-0123456789abcdef' },
  });
  return { code: res.code, stderr: res.stderr, out: readFileSync(out, 'utf8') };
}

describe('clean: 429 for the rate limit', () => {
  it('Retry-After: 999999 is not sat through: exit 3 at once, rows unchecked, how to resume', async () => {
    const service = await refusing({ 'retry-after': '999999' });
    const res = await clean();
    expect(res.code, res.stderr).toBe(3);
    expect(service.refused()).toBe(1);
    expect(res.stderr).toMatch(
      /^partial: 30 rows unchecked: the cleaning service asks to wait 11d 13h before the next request\.$/m,
    );
    expect(res.stderr).toMatch(/^hint: .*run the same command with --resume/m);
    expect(
      res.out
        .trim()
        .split('\n')
        .slice(1)
        .every((row) => row.includes(',unchecked,')),
    ).toBe(true);
    expect(JSON.parse(readFileSync(join(home().dir, 's.json'), 'utf8')).unchecked).toMatchObject({
      rows: 30,
      reason: 'rate-limited',
    });
  });

  it('429 forever: sending stops after 5 refusals in a row, exit 3', async () => {
    const service = await refusing({ 'retry-after': '0' });
    const res = await clean();
    expect(res.code, res.stderr).toBe(3);
    expect(service.refused()).toBe(5);
    expect(res.stderr).toMatch(
      /^partial: 30 rows unchecked: the cleaning service refused 5 requests in a row for its rate limit\.$/m,
    );
    expect(res.stderr).toMatch(
      /^hint: mailclean kept to --rate, but the service counts differently or is busy: lower --rate/m,
    );
  });
});
