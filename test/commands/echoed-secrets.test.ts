// A service that echoes the Authorization header back (in a JSON error, an HTML error page's title, a 401, even
// in a verdict): no token or password the run holds reaches stderr, stdout, the outputs, the summary or the report.
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { useServers } from '../helpers/http-server.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const TOKEN = '41|platformSecretTokenValue0123456789abcdef';
const CLEAN_TOKEN = 'cleanSecretTokenValue0123456789abcdef';
const home = useHome();
const serve = useServers();

/** The Authorization header the request carried, as a careless server would repeat it. */
const echo = (req: IncomingMessage) => String(req.headers.authorization);

async function service(answer: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<string> {
  let n = 0;
  const server = await serve((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res, n++));
  });
  return server.url;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('secrets a service echoes', () => {
  it.each([
    [
      'a JSON 500',
      (req: IncomingMessage, res: ServerResponse) => json(res, 500, { message: `Server error handling ${echo(req)}` }),
    ],
    [
      'an HTML 502 title',
      (req: IncomingMessage, res: ServerResponse) =>
        res
          .writeHead(502, { 'content-type': 'text/html' })
          .end(`<html><head><title>Bad gateway for ${echo(req)}</title></head></html>`),
    ],
    [
      'a 401',
      (req: IncomingMessage, res: ServerResponse) =>
        json(res, 401, { message: `Token ${echo(req).slice(7)} is not valid` }),
    ],
  ])('%s: the token is masked on stderr (and --debug)', async (_name, answer) => {
    const url = await service(answer);
    for (const args of [['me'], ['me', '--debug']]) {
      const res = await home().run(['--api-url', url, ...args], { env: { MAILCLEAN_TOKEN: TOKEN } });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('[redacted]');
      expect(res.stderr + res.stdout).not.toContain('platformSecret');
    }
  });

  it('in a verdict and in an allowance refusal: masked in the CSV, the summary JSON, the report and stderr', async () => {
    const url = await service((req, res, n) => {
      if (n > 0) {
        json(res, 403, { message: `Monthly allowance used up for ${echo(req)}` });
        return;
      }
      const emails = Array.from({ length: 50 }, (_, i) => `s${i}@example.com`);
      json(res, 200, {
        result: emails.map((email) => ({
          email,
          emailStatus: { status: 'valid', valid: true, reason: `seen with ${echo(req)}` },
        })),
      });
    });
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, `email\n${Array.from({ length: 60 }, (_, i) => `s${i}@example.com`).join('\n')}\n`);
    const files = ['out.csv', 'summary.json', 'report.html'].map((f) => join(home().dir, f));
    const res = await home().run(
      ['clean', input, '-o', files[0]!, '--summary-json', files[1]!, '--report', files[2]!, '--concurrency', '1'],
      {
        env: { MAILCLEAN_CLEAN_URL: url, MAILCLEAN_CLEAN_TOKEN: CLEAN_TOKEN },
      },
    );
    expect(res.code, res.stderr).toBe(3);
    const written = [res.stdout, res.stderr, ...files.map((f) => readFileSync(f, 'utf8'))];
    for (const text of written) expect(text).not.toContain('cleanSecret');
    expect(readFileSync(files[0]!, 'utf8')).toContain('seen with Bearer [redacted]');
  });
});

describe('--debug', () => {
  const sandboxes = useSandboxes();

  it("masks the subscribers' addresses in the request and answer bodies it logs", async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\nsubscriber.one@example.com\nsubscriber.two@example.org\n');
    const res = await home().run(['clean', input, '--format', 'ndjson', '--debug']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/^debug: \[cleaning service\] > body .*"s\*\*\*@example\.com"/m);
    expect(res.stderr).toMatch(/^debug: \[cleaning service\] < body .*s\*\*\*@example\.org/m);
    expect(res.stderr).not.toContain('subscriber.one');
    expect(res.stdout).toContain('subscriber.one@example.com'); // the data itself is untouched
  });
});
