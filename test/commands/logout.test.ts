// `mailclean logout`: the stored tokens of the profile are forgotten, on both services.
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

describe.each(['spec', 'alt'] as const)('logout (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('signs out of both services: auth status then says neither is signed in', async () => {
    const sandbox = await sandboxes.start({ shape });
    await registered(home(), sandbox, { service: 'all' });
    expect((await home().run([...urlsOf(sandbox), 'logout'])).code).toBe(0);
    const status = await home().run([...urlsOf(sandbox), 'auth', 'status', '--json']);
    expect(status.code).toBe(4);
    expect(JSON.parse(status.stdout).map((s: { signedIn: boolean }) => s.signedIn)).toEqual([false, false]);
  });
});
