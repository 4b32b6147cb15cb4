// `mailclean me` and `me update`: the profile on the built-in sandbox and on a configured service in both
// shapes, and its failures: one clear line, the right exit code, never a stack trace.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, useHome } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { closedPort, serve } from '../helpers/http-server.js';
import { registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const home = useHome();

describe('me on the built-in sandbox (no configuration)', () => {
  it('creates a local account on first use when none exists', async () => {
    const me = await home().run(['me', '--json', 'id,email']);
    expect(me.code).toBe(0);
    expect(me.stderr).toContain('Created a local sandbox account');
    const view = JSON.parse(me.stdout);
    expect(Object.keys(view)).toEqual(['id', 'email']);
    expect(view.email).toMatch(/@example\.com$/);
  });

  it('after logout, says "not signed in" (exit 4) rather than make an account in its place', async () => {
    expect((await home().run(['me'])).code).toBe(0);
    expect((await home().run(['logout'])).code).toBe(0);
    const me = await home().run(['me']);
    expect(me.code, me.stderr).toBe(4);
    expect(me.stderr).toMatch(
      /^error: not signed in to the platform\nhint: run `mailclean login`, or `mailclean register` for a new account$/m,
    );
    expect(me.stdout).toBe('');
    expect(me.stderr).not.toContain('Created a local sandbox account');
  });

  it('prints a readable summary without --json', async () => {
    await home().run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'correct horse battery',
    });
    const me = await home().run(['me']);
    expect(me.stdout).toMatch(/^Name\s+Ada$/m);
    expect(me.stdout).toMatch(/^Email\s+ada@example\.com \(address not confirmed\)$/m);
    expect(me.stdout).toMatch(/^Role\s+/m);
  });
});

describe.each(['spec', 'alt'] as const)('me against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape });
  });

  const run = (args: string[], stdin?: string, env?: Record<string, string>) =>
    home().run([...urlsOf(sandbox), ...args], { stdin, env });

  it('me update changes only the fields given', async () => {
    await registered(home(), sandbox, { name: 'Ada', service: 'all' });
    const first = await run([
      'me',
      'update',
      '--last-name',
      'Lovelace',
      '--phone',
      '+1 555 0100',
      '--country-code',
      'GB',
      '--json',
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+1 555 0100',
      country_code: 'GB',
    });
    const second = await run(['me', 'update', '--first-name', 'Augusta', '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({
      first_name: 'Augusta',
      last_name: 'Lovelace',
      phone: '+1 555 0100',
      country_code: 'GB',
    });
    const me = JSON.parse((await run(['me', '--json'])).stdout);
    expect(me).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace', phone: '+1 555 0100' });
    // --name as `register` takes it: the first word, then the rest.
    const named = await run(['me', 'update', '--name', 'Ada  King Lovelace', '--json']);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({
      first_name: 'Ada',
      last_name: 'King Lovelace',
      phone: '+1 555 0100',
    });
    expectError(
      await run(['me', 'update', '--name', 'Ada King', '--last-name', 'X']),
      2,
      'error: --name is the first and last names in one: give it, or --first-name and --last-name',
    );
  });

  it('me update with a field still missing and prompts off names the flag', async () => {
    await registered(home(), sandbox, { service: 'all' });
    const res = await run(['me', 'update', '--first-name', 'Ada']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: --last-name is required/m);
  });

  it('me --brand selects the current brand', async () => {
    await registered(home(), sandbox, { service: 'all' });
    const me = JSON.parse((await run(['me', '--json'])).stdout);
    const picked = await run(['me', '--brand', me.brand.id, '--json', 'brand']);
    expect(picked.code).toBe(0);
    expect(JSON.parse(picked.stdout).brand.id).toBe(me.brand.id);
    const unknown = await run(['me', '--brand', 'no-such-brand']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split('\n')[0]).toBe('error: --brand: "no-such-brand" is not one of your brands');
  });

  describe('me update: a required field still empty is named before anything is sent', () => {
    it('the last name registration left empty', async () => {
      await registered(home(), sandbox, { service: 'platform' });
      const res = await run(['me', 'update', '--first-name', 'Ada', '--phone', '+1 555 0100', '--country-code', 'GB']);
      expectError(
        res,
        2,
        /^error: --last-name is required: the service needs all four fields and your profile has no last name$/,
      );
      // Nothing was sent: the phone given alongside is not set.
      expect(JSON.parse((await run(['me', '--json', 'phone'])).stdout)).toEqual({ phone: null });
    });

    it('a flag given as an empty string', async () => {
      await registered(home(), sandbox, { service: 'platform' });
      const res = await run([
        'me',
        'update',
        '--first-name',
        ' ',
        '--last-name',
        'L',
        '--phone',
        '1',
        '--country-code',
        'GB',
      ]);
      expectError(res, 2, /^error: --first-name: must not be empty/);
    });
  });

  it('me update: a value the service refuses names its flag', async () => {
    await registered(home(), sandbox, { service: 'platform' });
    const res = await run([
      'me',
      'update',
      '--first-name',
      'Ada',
      '--last-name',
      'L',
      '--country-code',
      'GB',
      '--phone',
      '1'.repeat(40),
    ]);
    expectError(res, 2, 'error: --phone: The phone field must not be greater than 32 characters.');
  });

  // Also the check of a token that is not valid at all (merged here from test/errors.test.ts).
  it('a bad token: exit 4 with the service message and a hint for where the token came from', async () => {
    const res = await run(['me'], undefined, { MAILCLEAN_TOKEN: 'abc.def' });
    expectError(res, 4, /^error: the platform at 127\.0\.0\.1:\d+ refused the credentials: Unauthenticated\.$/);
    // A login cannot help while the variable overrides the stored token.
    expect(res.stderr).toContain(
      'hint: MAILCLEAN_TOKEN holds a token the platform does not accept; fix it or unset it',
    );
    await registered(home(), sandbox, { service: 'platform' });
    const config = join(home().configDir, 'config.json');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(/"token": "[^"]+"/, '"token": "revoked-token-value-0000"'),
    );
    const stored = await run(['me']);
    expectError(stored, 4, /refused the credentials/);
    expect(stored.stderr).toContain('hint: run `mailclean login`');
  });

  it('me --brand with a brand not yours names the flag and lists yours', async () => {
    await registered(home(), sandbox, { service: 'platform' });
    const me = JSON.parse((await run(['me', '--json', 'brand'])).stdout);
    const res = await run(['me', '--brand', 'no-such-brand']);
    expectError(res, 2, 'error: --brand: "no-such-brand" is not one of your brands');
    expect(res.stderr).toContain(`hint: your brands: ${me.brand.name} (${me.brand.id})\n`);
  });
});

describe('me failing', () => {
  const sandboxes = useSandboxes();

  it('an expired token: exit 4', async () => {
    const clock = new FakeClock(Date.now());
    const sandbox = await sandboxes.start({ now: clock.now, tokenTtlMs: 60_000 });
    await registered(home(), sandbox, { service: 'platform' });
    expect((await home().run([...urlsOf(sandbox), 'me'])).code).toBe(0);
    clock.advance(120_000);
    const res = await home().run([...urlsOf(sandbox), 'me']);
    expectError(res, 4, /refused the credentials/);
  });

  it('an unknown profile: exit 2 naming it', async () => {
    const res = await home().run(['me', '--profile', 'nope']);
    expectError(res, 2, /unknown profile "nope"/);
  });

  it('a malformed URL: exit 2 naming the flag', async () => {
    const res = await home().run(['me', '--api-url', 'not a url']);
    expectError(res, 2, /--api-url: "not a url" is not a valid URL/);
    const env = await home().run(['me'], { env: { MAILCLEAN_API_URL: 'ftp://x' } });
    expectError(env, 2, /MAILCLEAN_API_URL: "ftp:\/\/x" is not an http or https URL/);
  });

  it('a service that is down: exit 1 naming the host', async () => {
    const port = await closedPort();
    const res = await home().run(['me', '--api-url', `http://127.0.0.1:${port}`], { env: { MAILCLEAN_TOKEN: 'x.y' } });
    expectError(res, 1, new RegExp(`cannot reach the platform at 127\\.0\\.0\\.1:${port}: connection refused`));
  });

  it('a 502 with an HTML page: the status and the page title, not the page', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(
        `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${'<p>nginx</p>'.repeat(500)}</body></html>`,
      );
    });
    try {
      const res = await home().run(['me', '--api-url', server.url], { env: { MAILCLEAN_TOKEN: 'x.y' } });
      expectError(res, 1, /answered 502 to GET \/api\/me: HTML page: "502 Bad Gateway"$/);
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
      const res = await home().run(['me', '--api-url', server.url], { env: { MAILCLEAN_TOKEN: 'x.y' } });
      expectError(res, 1, /with a body that is not JSON \("hello, this is not json"\)/);
    } finally {
      await server.close();
    }
  });
});

// A profile that holds real credentials never falls back to the built-in sandbox.
describe('me with credentials but no URL', () => {
  const sandboxes = useSandboxes();

  it('fails naming the missing key; no sandbox starts, no account is made', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox, { service: 'all' });
    expect((await home().run(['config', 'unset', 'api-url'])).code).toBe(0);
    expect((await home().run(['config', 'unset', 'clean-url'])).code).toBe(0);
    const me = await home().run(['me']);
    expect(me.code).toBe(2);
    expect(me.stderr).toMatch(
      /^error: no api-url is configured for profile "default" \(it holds credentials, so the built-in sandbox is not used\)$/m,
    );
    expect(me.stderr).not.toMatch(/Using the built-in sandbox/);
    expect(existsSync(join(home().dataDir, 'sandbox'))).toBe(false);
    expect(readFileSync(join(home().configDir, 'config.json'), 'utf8')).not.toMatch(/"sandbox":\s*\{\s*"default"/);
  });

  it('a token in MAILCLEAN_TOKEN with no URL is an error, not a sandbox run', async () => {
    const me = await home().run(['me'], { env: { MAILCLEAN_TOKEN: 'a-real-looking-token-0123456789' } });
    expect(me.code).toBe(2);
    expect(me.stderr).toMatch(/no api-url is configured/);
    expect(existsSync(join(home().dataDir, 'sandbox'))).toBe(false);
  });
});
