import { meView, ROLE_FIELDS, type RoleView, roleViews } from '../account/views.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { renderTable } from '../io/table.js';
import { PERMISSION_FIELDS } from './common/json-fields.js';
import { currentUserId, platformSession } from './common/sessions.js';
import type { RolesFlags } from './flags/roles.js';

export async function showRoles(o: RolesFlags, f: Factory): Promise<number> {
  (await f.profile()).requireKnown();
  const client = await platformSession(f);
  // The profile names the brands and the role held in the current one.
  const me = meView(await client.me());
  const userId = o.user ?? me.id ?? (await currentUserId(f, client));
  let views = roleViews(await client.roles(userId), me, userId === me.id);
  if (o.role !== undefined) {
    const wanted = o.role.toLowerCase();
    const match = views.filter((r) => r.name?.toLowerCase() === wanted || r.display_name?.toLowerCase() === wanted);
    if (match.length === 0)
      throw new UsageError(
        `--role: no role named "${o.role}"`,
        `roles: ${[...new Set(views.map((r) => r.name))].join(', ')}`,
      );
    views = match;
  }
  if (views.some((r) => r.held === null) && views.some((r) => r.held !== null)) {
    f.io.note(
      `The role you hold is known in the current brand only (${me.brand?.name ?? me.brand?.id}); \`mailclean me --brand ID\` switches brands.`,
    );
  }
  const json = o.json;
  if (o.permissions) {
    const columns = roleColumns(views);
    const rows = permissionMatrix(views, columns);
    if (json !== undefined) f.io.json(rows, json, PERMISSION_FIELDS);
    else printPermissions(f, columns, rows);
    return 0;
  }
  if (json !== undefined) {
    f.io.json(views, json, ROLE_FIELDS);
    return 0;
  }
  const brands = brandLabels(views);
  const rows = views.map((r) => [
    brands.get(r.brand_id) ?? '-',
    r.name ?? '-',
    r.held ? '*' : '',
    r.display_name ?? '-',
    String(r.permissions.length),
    r.description ?? '',
  ]);
  f.io.out(
    renderTable(['BRAND', 'ROLE', 'HELD', 'DISPLAY NAME', 'PERMISSIONS', 'DESCRIPTION'], rows, f.io.isStdoutTTY),
  );
  return 0;
}

/** Each brand by name; by name and slug (or id) where two brands share a name. */
function brandLabels(views: RoleView[]): Map<string | null, string> {
  const names = new Map<string | null, string>();
  for (const r of views) names.set(r.brand_id, r.brand_name ?? r.brand_id ?? '-');
  const counts = new Map<string, number>();
  for (const name of names.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const labels = new Map<string | null, string>();
  for (const r of views) {
    const name = names.get(r.brand_id)!;
    labels.set(r.brand_id, counts.get(name)! > 1 ? `${name} (${r.brand_slug ?? r.brand_id})` : name);
  }
  return labels;
}

/** Each role's name, with `@brand-slug` when the roles span several brands (whose roles share names). */
function roleColumns(views: RoleView[]): Array<{ label: string; header: string }> {
  const severalBrands = new Set(views.map((r) => r.brand_id)).size > 1;
  return views.map((role) => {
    const name = role.name ?? '-';
    const brand = severalBrands ? `@${role.brand_slug ?? role.brand_id ?? '-'}` : '';
    return { label: `${name}${brand}`, header: `${name.toUpperCase()}${brand}` };
  });
}

/** A row of `roles --permissions` (docs/json.md): the permission, then every role that holds it. */
export type PermissionRow = ReturnType<typeof permissionRow>;

const permissionRow = (p: RoleView['permissions'][number]) => ({
  name: p.name,
  display_name: p.display_name,
  category: p.category,
  description: p.description,
  roles: [] as string[],
});

/** One row per permission, in category order, naming every role that holds it. */
function permissionMatrix(views: RoleView[], columns: ReturnType<typeof roleColumns>): PermissionRow[] {
  const byName = new Map<string, PermissionRow>();
  for (const [i, role] of views.entries()) {
    for (const p of role.permissions) {
      const row = byName.get(p.name) ?? permissionRow(p);
      if (role.name) row.roles.push(columns[i]!.label);
      byName.set(p.name, row);
    }
  }
  return [...byName.values()].sort(
    (a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.name.localeCompare(b.name),
  );
}

function printPermissions(f: Factory, columns: ReturnType<typeof roleColumns>, rows: PermissionRow[]): void {
  const mark = f.io.isStdoutTTY ? '✓' : 'yes';
  const table = rows.map((r) => [
    r.category ?? '-',
    visibleName(r.name),
    ...columns.map((c) => (r.roles.includes(c.label) ? mark : '')),
  ]);
  f.io.out(renderTable(['CATEGORY', 'PERMISSION', ...columns.map((c) => c.header)], table, f.io.isStdoutTTY));
}

/** A name with leading or trailing spaces is shown quoted, so the space is not lost on screen. */
function visibleName(name: string): string {
  return /^\s|\s$/.test(name) ? JSON.stringify(name) : name;
}
