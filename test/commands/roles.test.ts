// `mailclean roles`: the roles of the user's brands and their permissions, on the built-in sandbox, on a
// configured service in both shapes, and across two brands.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { Store } from '../../src/sandbox/store.js';
import { expectError, useHome } from '../helpers/cli.js';
import { registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';
import { registerUser } from '../sandbox/helpers.js';

const home = useHome();

describe('roles on the built-in sandbox (no configuration)', () => {
  it('prints a table without --json', async () => {
    await home().run(['register', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], {
      stdin: 'correct horse battery',
    });
    const roles = await home().run(['roles']);
    expect(roles.stdout.split('\n')[0]).toBe('BRAND\tROLE\tHELD\tDISPLAY NAME\tPERMISSIONS\tDESCRIPTION');
    expect(roles.stdout).toMatch(/^Ada's brand\tuser\t\t/m);
    expect(roles.stdout).toMatch(/^Ada's brand\tadmin\t\*\t/m);
  });
});

describe.each(['spec', 'alt'] as const)('roles against a configured service (%s shape)', (shape) => {
  const sandboxes = useSandboxes();
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await sandboxes.start({ shape });
  });

  const run = (args: string[]) => home().run([...urlsOf(sandbox), ...args]);

  it('roles --permissions shows each permission with the roles holding it', async () => {
    await registered(home(), sandbox, { service: 'all' });
    const res = await run(['roles', '--permissions', '--json']);
    expect(res.code).toBe(0);
    const rows: Array<{ name: string; roles: string[] }> = JSON.parse(res.stdout);
    expect(rows.find((r) => r.name === 'recipe-create')?.roles.sort()).toEqual(['admin', 'manager', 'superadmin']);
    expect(rows.find((r) => r.name === 'contact-get')?.roles.sort()).toEqual([
      'admin',
      'manager',
      'superadmin',
      'user',
    ]);
    expect(rows.some((r) => r.name === 'integration-get-all-containers ')).toBe(true);
    const table = await run(['roles', '--permissions', '--role', 'user']);
    expect(table.stdout.split('\n')[0]).toBe('CATEGORY\tPERMISSION\tUSER');
    expect(table.stdout).toContain('"integration-get-all-containers "');
    expect(table.stdout).not.toMatch(/\trecipe-create\t/);
  });

  it("another user's roles: the service's message, not the HTTP reason text", async () => {
    await registered(home(), sandbox, { service: 'platform' });
    const otherId = (await run(['me', '--json', 'id'])).stdout;
    await registered(home(), sandbox, { service: 'platform' });
    const res = await run(['roles', '--user', JSON.parse(otherId).id]);
    expectError(res, 1, /answered 403 to GET \/api\/user\/[^/]+\/roles: You may only view your own roles\.$/);
  });
});

interface RoleRow {
  name: string;
  brand_id: string;
  brand_name: string | null;
  brand_slug: string | null;
  held: boolean | null;
}

describe('roles across two brands', () => {
  const sandboxes = useSandboxes('mailclean-brands-');
  let sandbox: SandboxHandle;
  let first: { id: string; slug: string };
  let second: { id: string; slug: string };
  const run = (args: string[]) => home().run([...urlsOf(sandbox), ...args]);

  beforeEach(async () => {
    sandbox = await sandboxes.start({ dataDir: sandboxes.dataDir() });
    await registered(home(), sandbox, { name: 'Ada', service: 'platform' });
    const me = JSON.parse((await run(['me', '--json', 'id,brand'])).stdout) as {
      id: string;
      brand: { id: string; slug: string };
    };
    first = me.brand;
    // The spec has no route that adds a user to a brand: make Ada a manager of Bo's brand in the sandbox's state.
    const bo = await registerUser(sandbox.url, { name: 'Bo' });
    const store = await Store.open(sandboxes.dataDir());
    second = await store.mutate((draft) => {
      const ada = draft.platformUsers[me.id]!;
      ada.brand_ids.push(bo.brandId);
      ada.role_by_brand[bo.brandId] = 'manager';
      return { id: bo.brandId, slug: draft.brands[bo.brandId]!.slug };
    });
  });

  it("--json names each role's brand and marks the role held in the current brand", async () => {
    const res = await run(['roles', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const rows = JSON.parse(res.stdout) as RoleRow[];
    const summary = rows.map((r) => [r.brand_name, r.name, r.held]);
    expect(summary).toEqual([
      ["Ada's brand", 'admin', true],
      ["Ada's brand", 'manager', false],
      ["Ada's brand", 'superadmin', false],
      ["Ada's brand", 'user', false],
      // Not the current brand: the service says which role the user holds only for the current one.
      ["Bo's brand", 'admin', null],
      ["Bo's brand", 'manager', null],
      ["Bo's brand", 'superadmin', null],
      ["Bo's brand", 'user', null],
    ]);
    expect(rows.map((r) => r.brand_slug)).toEqual([...Array(4).fill(first.slug), ...Array(4).fill(second.slug)]);
    expect(res.stderr).toMatch(/role you hold .*current brand/);
  });

  it('the table has a BRAND column, no two rows alike, and marks the role held', async () => {
    const res = await run(['roles']);
    expect(res.code, res.stderr).toBe(0);
    const [header, ...lines] = res.stdout.trimEnd().split('\n');
    expect(header).toBe('BRAND\tROLE\tHELD\tDISPLAY NAME\tPERMISSIONS\tDESCRIPTION');
    expect(lines).toHaveLength(8);
    expect(new Set(lines).size).toBe(8);
    expect(lines.filter((l) => l.split('\t')[2] === '*')).toEqual([expect.stringMatching(/^Ada's brand\tadmin\t\*\t/)]);
  });

  it('after switching brands, marks the role held in the new current brand', async () => {
    expect((await run(['me', '--brand', second.id])).code).toBe(0);
    const rows = JSON.parse((await run(['roles', '--json'])).stdout) as RoleRow[];
    expect(rows.filter((r) => r.held === true).map((r) => [r.brand_id, r.name])).toEqual([[second.id, 'manager']]);
    expect(rows.filter((r) => r.brand_id === first.id).every((r) => r.held === null)).toBe(true);
    expect((await run(['me', '--brand', first.id])).code).toBe(0);
  });

  it('tells apart two brands of the same name by their slugs', async () => {
    const store = await Store.open(sandboxes.dataDir());
    await store.mutate((draft) => void (draft.brands[second.id]!.name = "Ada's brand"));
    const lines = (await run(['roles'])).stdout.trimEnd().split('\n').slice(1);
    expect(new Set(lines.map((l) => l.split('\t')[0]))).toEqual(
      new Set([`Ada's brand (${first.slug})`, `Ada's brand (${second.slug})`]),
    );
  });

  it("--permissions gives each brand's roles their own column", async () => {
    const table = await run(['roles', '--permissions']);
    expect(table.code, table.stderr).toBe(0);
    const header = table.stdout.split('\n')[0]!.split('\t');
    expect(header).toEqual([
      'CATEGORY',
      'PERMISSION',
      ...['ADMIN', 'MANAGER', 'SUPERADMIN', 'USER'].map((r) => `${r}@${first.slug}`),
      ...['ADMIN', 'MANAGER', 'SUPERADMIN', 'USER'].map((r) => `${r}@${second.slug}`),
    ]);
    const json = JSON.parse((await run(['roles', '--permissions', '--json'])).stdout) as Array<{
      name: string;
      roles: string[];
    }>;
    expect(json.find((p) => p.name === 'recipe-create')?.roles).toEqual([
      `admin@${first.slug}`,
      `manager@${first.slug}`,
      `superadmin@${first.slug}`,
      `admin@${second.slug}`,
      `manager@${second.slug}`,
      `superadmin@${second.slug}`,
    ]);
  });
});
