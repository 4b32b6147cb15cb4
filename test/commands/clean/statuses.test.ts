// A service with its own status words: `email_status` always speaks mailclean's five, the service's word is kept
// in `email_service_status` and the summary, and --only/--fail-when take what the user sees.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../../helpers/cli.js';
import { serve, type TestServer } from '../../helpers/http-server.js';

/** The service's word for each address, and its `valid` flag. */
const WORDS: Record<string, [string, boolean | null]> = {
  'a@example.com': ['deliverable', true],
  'b@example.com': ['undeliverable', false],
  'c@example.com': ['catch-all', true],
  'd@example.com': ['disposable', false],
  'e@example.com': ['unverifiable', null],
  'f@example.com': ['Deliverable_With_Warnings', true],
};

let home: TestHome;
let server: TestServer;
beforeEach(async () => {
  home = new TestHome();
  server = await serve((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const emails = (JSON.parse(body) as { email: string[] }).email;
      const result = emails.map((email) => ({
        email,
        emailStatus: { status: WORDS[email]![0], valid: WORDS[email]![1] },
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: true, statusCode: 200, result }));
    });
  });
});
afterEach(async () => {
  await server.close();
  home.cleanup();
});

const env = () => ({ MAILCLEAN_CLEAN_URL: server.url, MAILCLEAN_CLEAN_TOKEN: 'token-0123456789abcdef' });

function list(): string {
  const path = join(home.dir, 'list.csv');
  writeFileSync(path, `email\n${Object.keys(WORDS).join('\n')}\n`);
  return path;
}

describe("clean: the service's own status words", () => {
  it('become one of the five statuses; the word itself is kept in a column and the summary', async () => {
    const res = await home.run(['clean', list(), '--format', 'ndjson', '--summary-json', join(home.dir, 's.json')], {
      env: env(),
    });
    expect(res.code, res.stderr).toBe(0);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.email, r.email_status, r.email_reason, r.email_service_status])).toEqual([
      ['a@example.com', 'valid', null, 'deliverable'],
      ['b@example.com', 'invalid', 'rejected', 'undeliverable'],
      ['c@example.com', 'risky', 'catch_all', 'catch-all'],
      ['d@example.com', 'risky', 'disposable', 'disposable'],
      ['e@example.com', 'unknown', null, 'unverifiable'],
      ['f@example.com', 'valid', null, 'Deliverable_With_Warnings'],
    ]);
    const summary = JSON.parse(readFileSync(join(home.dir, 's.json'), 'utf8'));
    expect(summary.statuses).toEqual({ valid: 2, risky: 2, invalid: 1, unknown: 1 });
    expect(summary.serviceStatuses).toMatchObject({
      deliverable: 1,
      undeliverable: 1,
      'catch-all': 1,
      disposable: 1,
      unverifiable: 1,
    });
  });

  it('--only and --fail-when take the statuses and reasons users see', async () => {
    const only = await home.run(['clean', list(), '--format', 'ndjson', '--only', 'valid,disposable'], { env: env() });
    expect(only.code, only.stderr).toBe(0);
    expect(
      only.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).email),
    ).toEqual(['a@example.com', 'd@example.com', 'f@example.com']);
    const gate = await home.run(['clean', list(), '--format', 'ndjson', '--resume', '--fail-when', 'risky>=2'], {
      env: env(),
    });
    expect(gate.code).toBe(5);
  });
});
