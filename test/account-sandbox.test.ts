// With nothing configured, account commands run against the built-in sandbox in-process.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from './helpers/cli.js';

describe('account commands on the built-in sandbox (no configuration)', () => {
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('registers with a piped password, then me --json and roles --json work', async () => {
    const reg = await home.run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], { stdin: 'correct horse battery\n' });
    expect(reg.stderr).toContain('built-in sandbox');
    expect(reg.stderr).toContain('Registered ada@example.com on the platform');
    expect(reg.code).toBe(0);

    const me = await home.run(['me', '--json']);
    expect(me.code).toBe(0);
    const view = JSON.parse(me.stdout);
    expect(view.email).toBe('ada@example.com');
    expect(view.first_name).toBe('Ada');
    expect(view.last_name).toBe('');
    expect(view.email_verified).toBe(false);
    expect(view.role.name).toBe('admin');
    expect(view.brand.id).toEqual(expect.any(String));

    const roles = await home.run(['roles', '--json']);
    expect(roles.code).toBe(0);
    const list = JSON.parse(roles.stdout);
    expect(list.map((r: { name: string }) => r.name).sort()).toEqual(['admin', 'manager', 'superadmin', 'user']);
    expect(list[0].permissions[0]).toEqual(expect.objectContaining({ name: expect.any(String), category: expect.any(String) }));
  });

  it('keeps sandbox state between runs: a second registration of the same email is refused', async () => {
    const args = ['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'];
    expect((await home.run(args, { stdin: 'correct horse battery' })).code).toBe(0);
    const again = await home.run(args, { stdin: 'correct horse battery' });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: --email: The email has already been taken\.$/m);
    expect(again.stderr).not.toMatch(/\n\s+at /);
  });

  it('creates a local account on first use when none exists', async () => {
    const me = await home.run(['me', '--json', 'id,email']);
    expect(me.code).toBe(0);
    expect(me.stderr).toContain('Created a local sandbox account');
    const view = JSON.parse(me.stdout);
    expect(Object.keys(view)).toEqual(['id', 'email']);
    expect(view.email).toMatch(/@example\.com$/);
  });

  it('prints readable summaries without --json', async () => {
    await home.run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], { stdin: 'correct horse battery' });
    const me = await home.run(['me']);
    expect(me.stdout).toMatch(/^Name\s+Ada$/m);
    expect(me.stdout).toMatch(/^Email\s+ada@example\.com \(not verified\)$/m);
    expect(me.stdout).toMatch(/^Role\s+/m);
    const roles = await home.run(['roles']);
    expect(roles.stdout.split('\n')[0]).toBe('BRAND\tROLE\tHELD\tDISPLAY NAME\tPERMISSIONS\tDESCRIPTION');
    expect(roles.stdout).toMatch(/^Ada's brand\tuser\t\t/m);
    expect(roles.stdout).toMatch(/^Ada's brand\tadmin\t\*\t/m);
  });
});
