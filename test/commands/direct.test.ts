// Commands take typed options and a factory: they run without the argument parser.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authStatus } from '../../src/commands/auth.js';
import { cleanFlags } from '../../src/commands/clean/options.js';
import { cleanCommand } from '../../src/commands/clean/run.js';
import { showMe } from '../../src/commands/me.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';
import { testFactory } from '../helpers/streams.js';

describe('commands called directly', () => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  let home: TestHome;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ plan: 'unlimited' });
    home = new TestHome();
    await registered(home, sandbox, { service: 'all', email: 'direct@example.com' });
  });
  afterEach(() => home.cleanup());

  it('me and auth status with options objects', async () => {
    const me = testFactory(home);
    try {
      expect(await showMe({ json: 'email' }, me.f)).toBe(0);
    } finally {
      await me.f.close();
    }
    expect(JSON.parse(me.stdout())).toEqual({ email: 'direct@example.com' });

    const status = testFactory(home, { tty: true });
    try {
      expect(await authStatus({}, status.f)).toBe(0);
    } finally {
      await status.f.close();
    }
    expect(status.stdout()).toMatch(/Signed in as direct@example\.com/);
  });

  it('clean from options built without commander', async () => {
    const input = join(home.dir, 'list.csv');
    writeFileSync(input, 'email\nann@example.com\nbad@@x\n');
    const out = join(home.dir, 'out.csv');
    const run = testFactory(home);
    try {
      const code = await cleanCommand(
        cleanFlags({ output: out, format: 'csv', concurrency: '4', maxAge: '30d', precheck: true }, [input], false),
        run.f,
      );
      expect(code, run.stderr()).toBe(0);
    } finally {
      await run.f.close();
    }
    expect(
      readFileSync(out, 'utf8')
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',')[1]),
    ).toEqual(['valid', 'invalid']);
    expect(sandbox.stats().addressesCharged).toBe(1);
  });
});
