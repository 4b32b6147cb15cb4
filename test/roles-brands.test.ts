// `roles` for a user with two brands: each brand's four roles told apart, and the role the user holds marked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../src/sandbox/server.js';
import { Store } from '../src/sandbox/store.js';
import { TestHome } from './helpers/cli.js';
import { registerUser } from './sandbox/helpers.js';

interface RoleRow {
  name: string;
  brand_id: string;
  brand_name: string | null;
  brand_slug: string | null;
  held: boolean | null;
}

describe('roles across two brands', () => {
  let dataDir: string;
  let sandbox: SandboxHandle;
  let home: TestHome;
  let first: { id: string; slug: string };
  let second: { id: string; slug: string };
  const run = (args: string[], stdin?: string) => home.run(['--api-url', sandbox.url, '--clean-url', sandbox.url, ...args], { stdin });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mailclean-brands-'));
    sandbox = await startSandbox({ port: 0, dataDir });
    home = new TestHome();
    const reg = await run(['register', '--service', 'platform', '--name', 'Ada', '--email', 'ada@example.com', '--password-stdin'], 'a long password');
    expect(reg.code, reg.stderr).toBe(0);
    const me = JSON.parse((await run(['me', '--json', 'id,brand'])).stdout) as { id: string; brand: { id: string; slug: string } };
    first = me.brand;
    // The spec has no route that adds a user to a brand: make Ada a manager of Bo's brand in the sandbox's state.
    const bo = await registerUser(sandbox.url, { name: 'Bo' });
    const store = await Store.open(dataDir);
    second = await store.mutate((draft) => {
      const ada = draft.platformUsers[me.id]!;
      ada.brand_ids.push(bo.brandId);
      ada.role_by_brand[bo.brandId] = 'manager';
      return { id: bo.brandId, slug: draft.brands[bo.brandId]!.slug };
    });
  });
  afterAll(async () => {
    await sandbox.close();
    home.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('--json names each role\'s brand and marks the role held in the current brand', async () => {
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
    const store = await Store.open(dataDir);
    const rename = (name: string) => store.mutate((draft) => void (draft.brands[second.id]!.name = name));
    await rename("Ada's brand");
    try {
      const lines = (await run(['roles'])).stdout.trimEnd().split('\n').slice(1);
      expect(new Set(lines.map((l) => l.split('\t')[0]))).toEqual(new Set([`Ada's brand (${first.slug})`, `Ada's brand (${second.slug})`]));
    } finally {
      await rename("Bo's brand");
    }
  });

  it('--permissions gives each brand\'s roles their own column', async () => {
    const table = await run(['roles', '--permissions']);
    expect(table.code, table.stderr).toBe(0);
    const header = table.stdout.split('\n')[0]!.split('\t');
    expect(header).toEqual([
      'CATEGORY', 'PERMISSION',
      ...['ADMIN', 'MANAGER', 'SUPERADMIN', 'USER'].map((r) => `${r}@${first.slug}`),
      ...['ADMIN', 'MANAGER', 'SUPERADMIN', 'USER'].map((r) => `${r}@${second.slug}`),
    ]);
    const json = JSON.parse((await run(['roles', '--permissions', '--json'])).stdout) as Array<{ name: string; roles: string[] }>;
    expect(json.find((p) => p.name === 'recipe-create')?.roles).toEqual([
      `admin@${first.slug}`, `manager@${first.slug}`, `superadmin@${first.slug}`,
      `admin@${second.slug}`, `manager@${second.slug}`, `superadmin@${second.slug}`,
    ]);
  });
});
