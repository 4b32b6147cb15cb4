// One account is one state whatever its token's source: the profile's token, the same token from
// MAILCLEAN_CLEAN_TOKEN, and a later login of the same account share the cache, the journals, the limiter and the
// spend. A token never seen before gets a state of its own, found again by the same token.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../../helpers/cli.js';
import { PASSWORD, registered, useSandboxes } from '../../helpers/sandbox.js';

const list = (n: number) => `email\n${Array.from({ length: n }, (_, i) => `id${i}@example.com`).join('\n')}\n`;

describe.each(['spec', 'alt'] as const)('clean: one account, one state (%s answers)', (shape) => {
  const home = useHome();
  const sandboxes = useSandboxes();
  const FAST = ['--rate', '1000/1s'];

  it('the profile token, the same token from MAILCLEAN_CLEAN_TOKEN and a later login share the cache and the spend', async () => {
    const h = home();
    const sandbox = await sandboxes.start({ plan: 'pro', shape });
    await registered(h, sandbox, { email: 'Same@Example.com' });
    const input = join(h.dir, 'a.csv');
    writeFileSync(input, list(120));
    const first = await h.run(['clean', input, '-o', join(h.dir, 'out1.csv'), ...FAST]);
    expect(first.code, first.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(120);

    const token = (await h.run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    const fromEnv = await h.run(['clean', input, '-o', join(h.dir, 'out2.csv'), ...FAST], {
      env: { MAILCLEAN_CLEAN_TOKEN: token },
    });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(fromEnv.stderr).toContain('All 120 addresses were answered by an earlier run of this list');
    expect(sandbox.stats().addressesCharged).toBe(120);
    const path = (env?: Record<string, string>) => h.run(['cache', 'path'], { env }).then((r) => r.stdout);
    expect(await path({ MAILCLEAN_CLEAN_TOKEN: token })).toBe(await path());

    // A later login of the same account (a new token; the email in another case) finds the same state.
    const login = await h.run(['login', '--service', 'clean', '--email', 'same@example.com', '--password-stdin'], {
      stdin: PASSWORD,
    });
    expect(login.code, login.stderr).toBe(0);
    const newToken = (await h.run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    expect(newToken).not.toBe(token);
    const other = join(h.dir, 'b.csv');
    writeFileSync(other, list(150));
    const later = await h.run(['clean', other, '-o', join(h.dir, 'out3.csv'), ...FAST]);
    expect(later.code, later.stderr).toBe(0);
    expect(later.stderr).toContain('120 addresses answered within 30 days come from the cache');
    expect(sandbox.stats().addressesCharged).toBe(150);
    const spent = await h.run(['allowance', '--json', 'spentThisMachine']);
    expect(JSON.parse(spent.stdout)).toEqual({ spentThisMachine: 150 });
  });

  it('a token never seen here has a state of its own, which the same token finds again', async () => {
    const signer = home();
    const sandbox = await sandboxes.start({ plan: 'pro', shape });
    await registered(signer, sandbox);
    const token = (await signer.run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    // Another machine: no profile, only the token (a CI job).
    const ci = home();
    const input = join(ci.dir, 'a.csv');
    writeFileSync(input, list(60));
    const env = { MAILCLEAN_CLEAN_URL: sandbox.url, MAILCLEAN_CLEAN_TOKEN: token };
    const first = await ci.run(['clean', input, '-o', join(ci.dir, 'out1.csv'), ...FAST], { env });
    expect(first.code, first.stderr).toBe(0);
    const again = await ci.run(['clean', input, '-o', join(ci.dir, 'out2.csv'), ...FAST], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('All 60 addresses were answered by an earlier run of this list');
    expect(sandbox.stats().addressesCharged).toBe(60);
  });
});
