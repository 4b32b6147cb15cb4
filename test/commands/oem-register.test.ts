// `mailclean oem-register`: the internal token comes from the environment or a file, never a flag, and a
// refusal names where it came from, in both sandbox shapes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { expectError, TestHome } from '../helpers/cli.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const INTERNAL_TOKEN = 'internal-secret-123';

describe.each(['spec', 'alt'] as const)('oem-register against the %s shape', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape, internalToken: INTERNAL_TOKEN });
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  const run = (args: string[], stdin?: string, env?: Record<string, string>) =>
    home.run([...urlsOf(sandbox), ...args], { stdin, env });

  it('oem-register takes the internal token from the environment, never a flag', async () => {
    const missing = await run(
      ['oem-register', '--name', 'Cy', '--email', 'cy@example.com', '--password-stdin'],
      PASSWORD,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('MAILCLEAN_INTERNAL_TOKEN');
    const ok = await run(
      ['oem-register', '--name', 'Cy', '--email', 'cy@example.com', '--password-stdin', '--json', 'email'],
      PASSWORD,
      { MAILCLEAN_INTERNAL_TOKEN: INTERNAL_TOKEN },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ email: 'cy@example.com' });
    const wrong = await run(
      ['oem-register', '--name', 'Di', '--email', 'di@example.com', '--password-stdin'],
      PASSWORD,
      { MAILCLEAN_INTERNAL_TOKEN: 'wrong' },
    );
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(
      /^error: the platform refused the internal access token from MAILCLEAN_INTERNAL_TOKEN$/m,
    );
  });

  it('oem-register with a wrong internal token: exit 4 naming where it came from', async () => {
    const args = ['oem-register', '--name', 'Di', '--email', 'di@example.com', '--password-stdin'];
    const fromEnv = await run(args, PASSWORD, { MAILCLEAN_INTERNAL_TOKEN: 'wrong' });
    expectError(fromEnv, 4, 'error: the platform refused the internal access token from MAILCLEAN_INTERNAL_TOKEN');
    expect(fromEnv.stderr).toContain('hint: fix MAILCLEAN_INTERNAL_TOKEN or --internal-token-file FILE');
    expect(fromEnv.stderr).not.toContain('wrong');

    const file = join(home.dir, 'internal-token');
    writeFileSync(file, 'also-wrong\n');
    const fromFile = await run([...args, '--internal-token-file', file], PASSWORD);
    expectError(
      fromFile,
      4,
      `error: the platform refused the internal access token from --internal-token-file ${file}`,
    );
  });

  it('oem-register: an email already taken', async () => {
    await registered(home, sandbox, { email: 'taken@example.com', service: 'platform' });
    const res = await run(
      ['oem-register', '--name', 'Cy', '--email', 'taken@example.com', '--password-stdin'],
      PASSWORD,
      { MAILCLEAN_INTERNAL_TOKEN: INTERNAL_TOKEN },
    );
    expectError(res, 2, 'error: --email: The email has already been taken.');
  });
});
