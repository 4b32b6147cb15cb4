// Bad input and failing services: one clear line, the right exit code, never a stack trace.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { TestHome, type CliResult } from './helpers/cli.js';
import { closedPort, serve } from './helpers/http-server.js';

const PASSWORD = 'correct horse battery';

function expectOneLineError(res: CliResult, code: number, pattern: RegExp): void {
  expect(res.code, res.stderr).toBe(code);
  const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('hint:') && !l.includes('built-in sandbox'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  expect(res.stdout).toBe('');
}

describe('errors', () => {
  let sandbox: SandboxHandle;
  let now = Date.now();
  let home: TestHome;
  let urls: string[];

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => now, tokenTtlMs: 60_000 });
    urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('wrong password: exit 4', async () => {
    await home.run([...urls, 'register', '--name', 'Ada', '--email', 'wrong@example.com', '--password-stdin'], { stdin: PASSWORD });
    const res = await home.run([...urls, 'login', '--service', 'platform', '--email', 'wrong@example.com', '--password-stdin'], { stdin: 'not it at all' });
    expectOneLineError(res, 4, /did not accept that email and password/);
  });

  it('an invalid token: exit 4 with a hint to log in', async () => {
    const res = await home.run([...urls, 'me'], { env: { MAILCLEAN_TOKEN: 'abc.def' } });
    expectOneLineError(res, 4, /refused the credentials/);
    expect(res.stderr).toContain('hint: run `mailclean login`');
  });

  it('an expired token: exit 4', async () => {
    await home.run([...urls, 'register', '--name', 'Ada', '--email', 'expired@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect((await home.run([...urls, 'me'])).code).toBe(0);
    now += 120_000;
    const res = await home.run([...urls, 'me']);
    expectOneLineError(res, 4, /refused the credentials/);
  });

  it('an unknown profile: exit 2 naming it', async () => {
    const res = await home.run(['me', '--profile', 'nope']);
    expectOneLineError(res, 2, /unknown profile "nope"/);
  });

  it('a malformed URL: exit 2 naming the flag', async () => {
    const res = await home.run(['me', '--api-url', 'not a url']);
    expectOneLineError(res, 2, /--api-url: "not a url" is not a valid URL/);
    const env = await home.run(['me'], { env: { MAILCLEAN_API_URL: 'ftp://x' } });
    expectOneLineError(env, 2, /MAILCLEAN_API_URL: "ftp:\/\/x" is not an http or https URL/);
  });

  it('a service that is down: exit 1 naming the host', async () => {
    const port = await closedPort();
    const res = await home.run(['me', '--api-url', `http://127.0.0.1:${port}`], { env: { MAILCLEAN_TOKEN: 'x.y' } });
    expectOneLineError(res, 1, new RegExp(`cannot reach the platform at 127\\.0\\.0\\.1:${port}: connection refused`));
  });

  it('a 502 with an HTML page: the status and the page title, not the page', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(500)}</body></html>`);
    });
    try {
      const res = await home.run(['me', '--api-url', server.url], { env: { MAILCLEAN_TOKEN: 'x.y' } });
      expectOneLineError(res, 1, /answered 502 to GET \/api\/me: HTML page: "502 Bad Gateway"$/);
      expect(res.stderr.length).toBeLessThan(300);
    } finally {
      await server.close();
    }
  });

  it('a body that is not JSON: exit 1 with an excerpt', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello, this is not json');
    });
    try {
      const res = await home.run(['me', '--api-url', server.url], { env: { MAILCLEAN_TOKEN: 'x.y' } });
      expectOneLineError(res, 1, /with a body that is not JSON \("hello, this is not json"\)/);
    } finally {
      await server.close();
    }
  });

  it('an answer without the token a command needs: a clear error, not a crash', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ version: 'v1', status: true, statusCode: 201, response: { user: { data: { id: 'u1' } } } }));
    });
    try {
      const res = await home.run(['register', '--api-url', server.url, '--name', 'A', '--email', 'a@example.com', '--password-stdin'], { stdin: PASSWORD });
      expectOneLineError(res, 1, /registration answer from 127\.0\.0\.1:\d+ carries no token/);
    } finally {
      await server.close();
    }
  });

  it('a validation failure lists the server errors field by field, named as the command takes them', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'invalid', errors: { email: ['The email is taken.'], password: ['Too short.', 'Too plain.'], tos: ['Accept it.'] } }));
    });
    try {
      const res = await home.run(['register', '--api-url', server.url, '--name', 'Ada', '--email', 'a@example.com', '--password-stdin'], { stdin: PASSWORD });
      expectOneLineError(res, 2, /^error: --email: The email is taken\.; the password: Too short\.; Too plain\.; tos: Accept it\.$/);
    } finally {
      await server.close();
    }
  });

  it('a missing value with prompts off: exit 2 naming the flag', async () => {
    const res = await home.run([...urls, 'register', '--email', 'a@example.com', '--password-stdin'], { stdin: PASSWORD });
    expectOneLineError(res, 2, /--name is required/);
    const noPassword = await home.run([...urls, 'register', '--name', 'A', '--email', 'a@example.com']);
    expectOneLineError(noPassword, 2, /a password is required/);
    expect(noPassword.stderr).toContain('--password-stdin');
  });

  it('a bad flag: exit 2', async () => {
    const res = await home.run(['me', '--nope']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown option '--nope'/);
  });
});
