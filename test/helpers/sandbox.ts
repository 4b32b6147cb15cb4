// The one way tests start sandboxes: on 127.0.0.1, port 0, closed (with their data directories) after each test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import type { TestHome } from './cli.js';

/**
 * scrypt's N for the sandboxes of tests: 16 times cheaper than the sandbox's default, which was most of the time
 * of the tests that register accounts and sign in (half of it in test/commands/). Verification is unchanged.
 */
export const TEST_PASSWORD_COST = 1024;

/** Call at the top of a describe block: sandboxes started through it, and a fresh data directory, are gone after each test. */
export function useSandboxes(prefix = 'mailclean-sandbox-') {
  const open: SandboxHandle[] = [];
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await rm(root, { recursive: true, force: true });
  });
  return {
    dataDir: (): string => join(root, 'data'),
    async start(opts: SandboxOptions = {}): Promise<SandboxHandle> {
      const h = await startSandbox({ port: 0, passwordCost: TEST_PASSWORD_COST, ...opts });
      open.push(h);
      return h;
    },
    async stop(h: SandboxHandle): Promise<void> {
      open.splice(open.indexOf(h), 1);
      await h.close();
    },
  };
}

/** The flags that point the CLI at a sandbox. */
export function urlsOf(sandbox: SandboxHandle): string[] {
  return ['--api-url', sandbox.url, '--clean-url', sandbox.url];
}

/** The password of the accounts `registered` makes. */
export const PASSWORD = 'a long password';

/** Registers an account of `service` on the sandbox from `home`; the URLs are saved in its profile. */
export async function registered(
  home: TestHome,
  sandbox: SandboxHandle,
  opts: { email?: string; name?: string; service?: 'platform' | 'clean' | 'all' } = {},
): Promise<void> {
  const email = opts.email ?? `user-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const res = await home.run(
    [
      ...urlsOf(sandbox),
      'register',
      '--service',
      opts.service ?? 'clean',
      '--name',
      opts.name ?? 'Test',
      '--email',
      email,
      '--password-stdin',
    ],
    {
      stdin: PASSWORD,
    },
  );
  expect(res.code, res.stderr).toBe(0);
}
