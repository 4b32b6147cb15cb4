// `mailclean login`: with a password to one or both services, with a token, and its failures, in both sandbox
// shapes (what the spec leaves open: docs/assumptions.md).
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, useHome } from '../helpers/cli.js';
import { serve } from '../helpers/http-server.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const home = useHome();

describe.each(['spec', 'alt'] as const)('login against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape });
  });

  const run = (args: string[], stdin?: string) => home().run([...urlsOf(sandbox), ...args], { stdin });

  it('registers on both services, logs out, and logs in to both with one password', async () => {
    await registered(home(), sandbox, { email: 'ada1@example.com', service: 'all' });
    expect((await run(['logout'])).code).toBe(0);

    const login = await run(['login', '--email', 'ada1@example.com', '--password-stdin', '--json'], PASSWORD);
    expect(login.code, login.stderr).toBe(0);
    const out = JSON.parse(login.stdout);
    expect(out.platform.ok).toBe(true);
    expect(out.clean.ok).toBe(true);

    const after = await run(['auth', 'status', '--json']);
    expect(after.code).toBe(0);
    const [platform, clean] = JSON.parse(after.stdout);
    expect(platform).toMatchObject({
      service: 'platform',
      signedIn: true,
      verified: true,
      email: 'ada1@example.com',
      tokenSource: 'profile',
    });
    expect(clean).toMatchObject({ service: 'clean', signedIn: true, tokenSource: 'profile' });
    expect(platform.token).toContain('…');
  });

  it('with --service all, one side failing is a warning when the other succeeds', async () => {
    await registered(home(), sandbox, { email: 'bo@example.com', service: 'platform' });
    const login = await run(['login', '--email', 'bo@example.com', '--password-stdin'], PASSWORD);
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/warning: clean: the cleaning service did not accept that email and password/);
  });

  it('login --with-token checks a platform token and stores it', async () => {
    await registered(home(), sandbox, { email: 'ada7@example.com', service: 'all' });
    const token = (await run(['auth', 'token'])).stdout.trim();
    await run(['logout']);
    const res = await run(['login', '--with-token', '--service', 'platform', '--json'], `${token}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('ada7@example.com');
    const { brand } = JSON.parse((await run(['me', '--json', 'brand'])).stdout);
    expect(JSON.parse(res.stdout)).toEqual({
      platform: { ok: true, userId: expect.any(String), email: 'ada7@example.com', brandId: brand.id },
    });
    expect((await run(['auth', 'token'])).stdout.trim()).toBe(token);
    expect((await run(['config', 'get', 'brand'])).stdout.trim()).toBe(brand.id);
    const all = await run(['login', '--with-token'], token);
    expect(all.code).toBe(2);
    expect(all.stderr).toContain('--service platform or --service clean');
  });

  it('login --with-token --service clean: a token the service takes is stored with a ✓; garbage is refused and nothing stored', async () => {
    await registered(home(), sandbox, { email: 'cy@example.com', service: 'clean' });
    const token = (await run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    await run(['logout']);
    const garbage = await run(['login', '--with-token', '--service', 'clean'], 'garbage-token-0123456789\n');
    expectError(garbage, 4, 'error: the cleaning service did not accept that token; nothing was stored');
    expect((await run(['auth', 'token', '--service', 'clean'])).code).toBe(4);
    const good = await run(['login', '--with-token', '--service', 'clean', '--json'], `${token}\n`);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).toContain('✓ Stored the cleaning service token (the service accepted it)');
    expect(JSON.parse(good.stdout)).toEqual({ clean: { ok: true, verified: true } });
    expect(sandbox.stats().addressesCharged).toBe(0);
  });

  it('a wrong password at login: exit 4', async () => {
    await registered(home(), sandbox, { email: 'wrong@example.com', service: 'platform' });
    const res = await run(
      ['login', '--service', 'platform', '--email', 'wrong@example.com', '--password-stdin'],
      'not the password',
    );
    expectError(res, 4, 'error: the platform did not accept that email and password');
  });
});

describe('login: a 422 names the flag', () => {
  it('whichever envelope carries the field errors', async () => {
    // The sandbox never refuses a login's fields once the CLI has checked them; a real service might.
    const bodies = [
      { message: 'The given data was invalid.', errors: { email: ['The selected email is invalid.'] } },
      {
        version: 'v1',
        status: false,
        statusCode: 422,
        details: 'Unprocessable Entity',
        statusMessage: 'The given data was invalid.',
        response: { errors: { email: ['The selected email is invalid.'] } },
      },
    ];
    for (const body of bodies) {
      const server = await serve((_req, res) => {
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
      try {
        const res = await home().run(
          ['login', '--api-url', server.url, '--service', 'platform', '--email', 'ada@example.com', '--password-stdin'],
          { stdin: PASSWORD },
        );
        expectError(res, 2, 'error: --email: The selected email is invalid.');
      } finally {
        await server.close();
      }
    }
  });
});
