// `mailclean allowance`: what the sign-in, refusals and runs taught about the month's allowance, against the
// sandbox in both answer shapes, and the spend of every runner when the state is shared (a real redis-server).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AllowanceView } from '../../src/commands/allowance.js';
import { useHome } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { describeWithRedis } from '../helpers/redis.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

describe.each(['spec', 'alt'] as const)('allowance (%s shape)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('after sign-in, after a verify and a clean: what is left, the plan, and what this machine spent', async () => {
    // One clock for the CLI and the service: the month counted is the one both are in.
    const clock = new FakeClock(Date.parse('2026-11-10T12:00:00Z'));
    home().clock = clock;
    const sandbox = await sandboxes.start({ plan: 'free', shape, now: clock.now, tokenTtlMs: 365 * 86_400_000 });
    await registered(home(), sandbox);
    const json = async () => {
      const res = await home().run(['allowance', '--json']);
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout) as AllowanceView;
    };
    const month = '2026-11';
    expect(await json()).toMatchObject({
      left: 50,
      limit: 50,
      plan: 'free',
      source: 'signin',
      month,
      spentThisMachine: 0,
      spentAllRunners: null,
    });

    expect((await home().run(['verify', 'ann@example.com', 'bob@example.com'])).code).toBe(0);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, 'email\ncy@example.com\ndi@example.com\nann@example.com\n');
    expect((await home().run(['clean', input, '-o', join(home().dir, 'out.csv')])).code).toBe(0);
    // ann@ came from the cache: 2 + 2 spent.
    expect(await json()).toMatchObject({ left: 46, source: 'run', spentThisMachine: 4 });
    expect(sandbox.stats().addressesCharged).toBe(4);

    const text = await home().run(['allowance']);
    expect(text.stdout).toMatch(/^Left\s+46 as of .* UTC, from counting down since/m);
    expect(text.stdout).toMatch(/^Plan\s+free: 50 addresses a month/m);
    expect(text.stdout).toMatch(new RegExp(`^Spent in ${month}\\s+4 addresses on this machine$`, 'm'));
  });

  it('a refusal is news too: what the service said is left', async () => {
    const sandbox = await sandboxes.start({ plan: 'free', shape });
    await registered(home(), sandbox);
    const many = Array.from({ length: 51 }, (_, i) => `user${i}@example.com`);
    expect((await home().run(['verify', ...many])).code).toBe(3);
    const res = await home().run(['allowance', '--json', 'left,source,spentThisMachine']);
    const view = JSON.parse(res.stdout) as AllowanceView;
    expect(view.left).toBe(50 - view.spentThisMachine);
    expect(view.spentThisMachine).toBe(sandbox.stats().addressesCharged);
  });
});

describe('allowance', () => {
  const home = useHome();
  it('without a cleaning account is a usage error saying how to sign in', async () => {
    const res = await home().run(['allowance']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/no cleaning account.*\n.*mailclean login/);
  });
});

describeWithRedis('test/commands/allowance.test.ts', 'allowance --shared', (redis) => {
  const home = useHome();
  const sandboxes = useSandboxes();

  it('counts what every runner sharing the account spent, apart from this machine', async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited' });
    await registered(home(), sandbox);
    expect((await home().run(['verify', 'ann@example.com', '--max-age', '0'])).code).toBe(0);
    expect(
      (
        await home().run(['verify', 'bob@example.com', 'cy@example.com', '--max-age', '0'], {
          env: { MAILCLEAN_REDIS_URL: redis().url },
        })
      ).code,
    ).toBe(0);
    const res = await home().run(['allowance', '--shared', redis().url, '--json', 'spentThisMachine,spentAllRunners']);
    expect(JSON.parse(res.stdout)).toEqual({ spentThisMachine: 3, spentAllRunners: 2 });
  });
});
