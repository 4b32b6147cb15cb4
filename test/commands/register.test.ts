// `mailclean register`: on the built-in sandbox, on a configured service in both shapes, its prompts on a
// terminal, and its failures (one line naming the flag, the right exit code).
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, useHome } from '../helpers/cli.js';
import { serve } from '../helpers/http-server.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';
import { interactive } from '../helpers/terminal.js';

const home = useHome();

describe('register on the built-in sandbox (no configuration)', () => {
  it('keeps sandbox state between runs: a second registration of the same email is refused', async () => {
    const args = ['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'];
    expect((await home().run(args, { stdin: 'correct horse battery' })).code).toBe(0);
    const again = await home().run(args, { stdin: 'correct horse battery' });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: --email: The email has already been taken\.$/m);
    expect(again.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('register saves the URLs it was given', () => {
  const sandboxes = useSandboxes();

  it('MAILCLEAN_API_URL and MAILCLEAN_CLEAN_URL given to register are saved too', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    const env = { MAILCLEAN_API_URL: sandbox.url, MAILCLEAN_CLEAN_URL: sandbox.url };
    const reg = await home().run(['register', '--name', 'Bo', '--email', 'env-urls@example.com', '--password-stdin'], {
      stdin: PASSWORD,
      env,
    });
    expect(reg.code, reg.stderr).toBe(0);
    const list = await home().run(['config', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ 'api-url': sandbox.url, 'clean-url': sandbox.url });
  });
});

describe.each(['spec', 'alt'] as const)('register failing against the %s shape: a 422 names the flag', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape });
  });

  const run = (args: string[], stdin?: string) => home().run([...urlsOf(sandbox), ...args], { stdin });

  it('register: an email already taken, on either service', async () => {
    await registered(home(), sandbox, { email: 'taken@example.com', service: 'all' });
    for (const service of ['platform', 'clean']) {
      const res = await run(
        ['register', '--name', 'Ada', '--email', 'taken@example.com', '--password-stdin', '--service', service],
        PASSWORD,
      );
      expectError(res, 2, 'error: --email: The email has already been taken.');
    }
  });

  it('register: a short password names the password input', async () => {
    const res = await run(['register', '--name', 'Ada', '--email', 'short@example.com', '--password-stdin'], 'short');
    expectError(res, 2, 'error: the password: The password field must be at least 8 characters.');
  });

  it('register with both services: each side warns or fails with the flag', async () => {
    await registered(home(), sandbox, { email: 'half@example.com', service: 'clean' });
    const res = await run(
      ['register', '--name', 'Ada', '--email', 'half@example.com', '--password-stdin', '--service', 'all'],
      PASSWORD,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('warning: clean: --email: The email has already been taken.');
  });
});

describe('register failing', () => {
  const sandboxes = useSandboxes();

  it('an answer without the token a command needs: a clear error, not a crash', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ version: 'v1', status: true, statusCode: 201, response: { user: { data: { id: 'u1' } } } }),
      );
    });
    try {
      const res = await home().run(
        ['register', '--api-url', server.url, '--name', 'A', '--email', 'a@example.com', '--password-stdin'],
        { stdin: PASSWORD },
      );
      expectError(res, 1, /registration answer from 127\.0\.0\.1:\d+ carries no token/);
    } finally {
      await server.close();
    }
  });

  it('a validation failure lists the server errors field by field, named as the command takes them', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          message: 'invalid',
          errors: { email: ['The email is taken.'], password: ['Too short.', 'Too plain.'], tos: ['Accept it.'] },
        }),
      );
    });
    try {
      const res = await home().run(
        ['register', '--api-url', server.url, '--name', 'Ada', '--email', 'a@example.com', '--password-stdin'],
        { stdin: PASSWORD },
      );
      expectError(
        res,
        2,
        /^error: --email: The email is taken\.; the password: Too short\.; Too plain\.; tos: Accept it\.$/,
      );
    } finally {
      await server.close();
    }
  });

  it('a missing value with prompts off: exit 2 naming the flag', async () => {
    const urls = urlsOf(await sandboxes.start());
    const res = await home().run([...urls, 'register', '--email', 'a@example.com', '--password-stdin'], {
      stdin: PASSWORD,
    });
    expectError(res, 2, /--name is required/);
    const noPassword = await home().run([...urls, 'register', '--name', 'A', '--email', 'a@example.com']);
    expectError(noPassword, 2, /a password is required/);
    expect(noPassword.stderr).toContain('--password-stdin');
  });
});

// The answers are typed only once each question shows, as a person would.
describe('register prompts on a terminal', () => {
  it('register asks for what is missing, the password masked and confirmed', async () => {
    const res = await interactive(
      home(),
      ['register'],
      [
        [/Name:/, 'Ada'],
        [/Email:/, 'ada@example.com'],
        [/Password:/, 'a secret phrase'],
        [/Password \(again\):/, 'a secret phrase'],
      ],
    );
    expect(res.answered).toBe(4);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toContain('a secret phrase');
    expect(res.stderr).toContain('Registered ada@example.com');
  });

  it('with --no-input the same command names the missing flag instead', async () => {
    const res = await interactive(home(), ['register', '--no-input'], []);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--name is required/);
  });

  it('Ctrl-D at a prompt (the input ends): one line saying so, exit 1, not an interrupt', async () => {
    const res = await interactive(
      home(),
      ['register'],
      [
        [/Name:/, 'Ada'],
        [/Email:/, { keys: '\x04' }],
      ],
    );
    expect(res.answered).toBe(2);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/error: no answer: the input ended \(Ctrl-D\)\n$/);
    expect(res.stderr).not.toMatch(/Interrupted|cancelled/);
  });

  it('SIGTERM at a prompt cancels it: exit 143', async () => {
    const res = await interactive(home(), ['register'], [[/Name:/, { signal: 'SIGTERM' }]]);
    expect(res.answered).toBe(1);
    expect(res.code).toBe(143);
    expect(res.stderr).toMatch(/Interrupted\.\n$/);
  });
});
