// Account commands failing: one line naming the flag or the fix, the right exit code, in both sandbox shapes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { TestHome, type CliResult } from './helpers/cli.js';
import { serve } from './helpers/http-server.js';

const PASSWORD = 'correct horse battery';

/** Exactly one `error:` line (and at most a hint), nothing on stdout, no stack trace. */
function expectError(res: CliResult, code: number, line: string | RegExp): void {
  expect(res.code, res.stderr).toBe(code);
  const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('hint:'));
  expect(lines).toHaveLength(1);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(res.stderr).not.toMatch(/^\s+at /m);
  expect(res.stdout).toBe('');
}

describe.each(['spec', 'alt'] as const)('account failures against the %s shape', (shape) => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let urls: string[];
  let counter = 0;
  const uniqueEmail = () => `${shape}.fail${++counter}@example.com`;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, shape, internalToken: 'internal-secret-123' });
    urls = ['--api-url', sandbox.url, '--clean-url', sandbox.url];
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  const run = (args: string[], stdin?: string, env?: Record<string, string>) => home.run([...urls, ...args], { stdin, env });

  async function register(email: string, service = 'all') {
    const res = await run(['register', '--name', 'Ada', '--email', email, '--password-stdin', '--service', service], PASSWORD);
    expect(res.code, res.stderr).toBe(0);
  }

  describe('me update: a required field still empty is named before anything is sent', () => {
    it('the last name registration left empty', async () => {
      await register(uniqueEmail(), 'platform');
      const res = await run(['me', 'update', '--first-name', 'Ada', '--phone', '+1 555 0100', '--country-code', 'GB']);
      expectError(res, 2, /^error: --last-name is required: the service needs all four fields and your profile has no last name$/);
      // Nothing was sent: the phone given alongside is not set.
      expect(JSON.parse((await run(['me', '--json', 'phone'])).stdout)).toEqual({ phone: null });
    });

    it('a flag given as an empty string', async () => {
      await register(uniqueEmail(), 'platform');
      const res = await run(['me', 'update', '--first-name', ' ', '--last-name', 'L', '--phone', '1', '--country-code', 'GB']);
      expectError(res, 2, /^error: --first-name: must not be empty/);
    });
  });

  describe('refusals say what to fix', () => {
    it('a bad token: exit 4 with the service message and a hint to log in', async () => {
      const res = await run(['me'], undefined, { MAILCLEAN_TOKEN: 'abc.def' });
      expectError(res, 4, /^error: the platform at 127\.0\.0\.1:\d+ refused the credentials: Unauthenticated\.$/);
      expect(res.stderr).toContain('hint: run `mailclean login`');
    });

    it('a wrong password at login: exit 4', async () => {
      const email = uniqueEmail();
      await register(email, 'platform');
      const res = await run(['login', '--service', 'platform', '--email', email, '--password-stdin'], 'not the password');
      expectError(res, 4, 'error: the platform did not accept that email and password');
    });

    it("another user's roles: the service's message, not the HTTP reason text", async () => {
      const other = uniqueEmail();
      await register(other, 'platform');
      const otherId = (await run(['me', '--json', 'id'])).stdout;
      await register(uniqueEmail(), 'platform');
      const res = await run(['roles', '--user', JSON.parse(otherId).id]);
      expectError(res, 1, /answered 403 to GET \/api\/user\/[^/]+\/roles: You may only view your own roles\.$/);
    });

    it('me --brand with a brand not yours names the flag and lists yours', async () => {
      await register(uniqueEmail(), 'platform');
      const me = JSON.parse((await run(['me', '--json', 'brand'])).stdout);
      const res = await run(['me', '--brand', 'no-such-brand']);
      expectError(res, 2, 'error: --brand: "no-such-brand" is not one of your brands');
      expect(res.stderr).toContain(`hint: your brands: ${me.brand.name} (${me.brand.id})\n`);
    });

    it('oem-register with a wrong internal token: exit 4 naming where it came from', async () => {
      const args = ['oem-register', '--name', 'Di', '--email', uniqueEmail(), '--password-stdin'];
      const fromEnv = await run(args, PASSWORD, { MAILCLEAN_INTERNAL_TOKEN: 'wrong' });
      expectError(fromEnv, 4, 'error: the platform refused the internal access token from MAILCLEAN_INTERNAL_TOKEN');
      expect(fromEnv.stderr).toContain('hint: fix MAILCLEAN_INTERNAL_TOKEN or --internal-token-file FILE');
      expect(fromEnv.stderr).not.toContain('wrong');

      const file = join(home.dir, 'internal-token');
      writeFileSync(file, 'also-wrong\n');
      const fromFile = await run([...args, '--internal-token-file', file], PASSWORD);
      expectError(fromFile, 4, `error: the platform refused the internal access token from --internal-token-file ${file}`);
    });
  });

  describe('a 422 names the flag', () => {
    it('register: an email already taken, on either service', async () => {
      const email = uniqueEmail();
      await register(email);
      for (const service of ['platform', 'clean']) {
        const res = await run(['register', '--name', 'Ada', '--email', email, '--password-stdin', '--service', service], PASSWORD);
        expectError(res, 2, 'error: --email: The email has already been taken.');
      }
    });

    it('register: a short password names the password input', async () => {
      const res = await run(['register', '--name', 'Ada', '--email', uniqueEmail(), '--password-stdin'], 'short');
      expectError(res, 2, 'error: the password: The password field must be at least 8 characters.');
    });

    it('register with both services: each side warns or fails with the flag', async () => {
      const email = uniqueEmail();
      await register(email, 'clean');
      const res = await run(['register', '--name', 'Ada', '--email', email, '--password-stdin', '--service', 'all'], PASSWORD);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('warning: clean: --email: The email has already been taken.');
    });

    it('me update: a value the service refuses names its flag', async () => {
      await register(uniqueEmail(), 'platform');
      const res = await run(['me', 'update', '--first-name', 'Ada', '--last-name', 'L', '--country-code', 'GB', '--phone', '1'.repeat(40)]);
      expectError(res, 2, 'error: --phone: The phone field must not be greater than 32 characters.');
    });

    it('oem-register: an email already taken', async () => {
      const email = uniqueEmail();
      await register(email, 'platform');
      const res = await run(['oem-register', '--name', 'Cy', '--email', email, '--password-stdin'], PASSWORD, { MAILCLEAN_INTERNAL_TOKEN: 'internal-secret-123' });
      expectError(res, 2, 'error: --email: The email has already been taken.');
    });
  });
});

describe('login: a 422 names the flag', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('whichever envelope carries the field errors', async () => {
    // The sandbox never refuses a login's fields once the CLI has checked them; a real service might.
    const bodies = [
      { message: 'The given data was invalid.', errors: { email: ['The selected email is invalid.'] } },
      { version: 'v1', status: false, statusCode: 422, details: 'Unprocessable Entity', statusMessage: 'The given data was invalid.', response: { errors: { email: ['The selected email is invalid.'] } } },
    ];
    for (const body of bodies) {
      const server = await serve((_req, res) => {
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
      try {
        const res = await home.run(['login', '--api-url', server.url, '--service', 'platform', '--email', 'ada@example.com', '--password-stdin'], { stdin: PASSWORD });
        expectError(res, 2, 'error: --email: The selected email is invalid.');
      } finally {
        await server.close();
      }
    }
  });
});
