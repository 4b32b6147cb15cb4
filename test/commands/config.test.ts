// `mailclean config`: settings per profile, checked as they are set; profiles keep endpoints and credentials apart.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { PASSWORD, useSandboxes } from '../helpers/sandbox.js';

let home: TestHome;
beforeEach(() => {
  home = new TestHome();
});
afterEach(() => home.cleanup());

describe('config', () => {
  it('config set, get, list, unset and path', async () => {
    expect((await home.run(['config', 'set', 'api-url', 'https://api.example.com/'])).code).toBe(0);
    expect((await home.run(['config', 'get', 'api-url'])).stdout).toBe('https://api.example.com\n');
    expect((await home.run(['config', 'set', 'rate', '10/1m'])).code).toBe(0);
    expect((await home.run(['config', 'set', 'rate', 'fast'])).code).toBe(2);
    expect((await home.run(['config', 'set', 'api-url', 'nope'])).code).toBe(2);
    expect((await home.run(['config', 'set', 'token', 'abc'])).code).toBe(2);
    expect((await home.run(['config', 'list', '--json'])).stdout).toBe(`${JSON.stringify({ 'api-url': 'https://api.example.com', rate: '10/1m' }, null, 2)}\n`);
    expect((await home.run(['config', 'unset', 'rate'])).code).toBe(0);
    expect((await home.run(['config', 'get', 'rate'])).code).toBe(1);
    expect((await home.run(['config', 'path'])).stdout.trim()).toBe(`${home.configDir}/config.json`);
  });
});

describe.each(['spec', 'alt'] as const)('config profiles against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();

  it('profiles keep endpoints and credentials apart', async () => {
    const sandbox = await sandboxes.start({ shape });
    const set = await home.run(['config', 'set', 'api-url', sandbox.url, '--profile', 'work']);
    expect(set.code).toBe(0);
    await home.run(['config', 'set', 'clean-url', sandbox.url, '--profile', 'work']);
    const reg = await home.run(['register', '--profile', 'work', '--name', 'Ed', '--email', 'ed@example.com', '--password-stdin'], { stdin: PASSWORD });
    expect(reg.code, reg.stderr).toBe(0);
    const me = await home.run(['me', '--json', 'email'], { env: { MAILCLEAN_PROFILE: 'work' } });
    expect(JSON.parse(me.stdout)).toEqual({ email: 'ed@example.com' });
    const list = await home.run(['config', 'list', '--profile', 'work']);
    expect(list.stdout).toContain(`api-url=${sandbox.url}`);
    expect(list.stdout).toMatch(/^token=…\S{4}$/m);
  });
});
