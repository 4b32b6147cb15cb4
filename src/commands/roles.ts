import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { currentUserId, platformSession } from '../account/session.js';
import { roleViews, ROLE_FIELDS, type RoleView } from '../account/views.js';
import { renderTable } from '../io/table.js';
import { jsonOption } from './inputs.js';

const PERMISSION_FIELDS = ['name', 'display_name', 'category', 'description', 'roles'];

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--user <id>', 'whose roles (default: you)')
    .option('--role <name>', 'only this role')
    .option('--permissions', 'list permissions by category, with the roles that hold each')
    .addOption(jsonOption())
    .addHelpText('after', `\nJSON fields: ${ROLE_FIELDS.join(', ')}\nWith --permissions: ${PERMISSION_FIELDS.join(', ')}`)
    .action(run(roles));
}

async function roles(ctx: Ctx, opts: Record<string, unknown>): Promise<number> {
  await ctx.requireKnownProfile();
  const client = await platformSession(ctx);
  const userId = (opts.user as string | undefined) ?? (await currentUserId(ctx, client));
  let views = roleViews(await client.roles(userId));
  if (opts.role !== undefined) {
    const wanted = String(opts.role).toLowerCase();
    const match = views.filter((r) => r.name?.toLowerCase() === wanted || r.display_name?.toLowerCase() === wanted);
    if (match.length === 0) throw new UsageError(`--role: no role named "${opts.role}"`, `roles: ${views.map((r) => r.name).join(', ')}`);
    views = match;
  }
  const json = opts.json as string | boolean | undefined;
  if (opts.permissions) {
    const rows = permissionMatrix(views);
    if (json !== undefined) ctx.json(rows, json, PERMISSION_FIELDS);
    else printPermissions(ctx, views, rows);
    return 0;
  }
  if (json !== undefined) {
    ctx.json(views, json, ROLE_FIELDS);
    return 0;
  }
  const rows = views.map((r) => [r.name ?? '-', r.display_name ?? '-', String(r.permissions.length), r.description ?? '']);
  ctx.out(renderTable(['ROLE', 'DISPLAY NAME', 'PERMISSIONS', 'DESCRIPTION'], rows, ctx.stdoutIsTTY));
  return 0;
}

interface PermissionRow {
  name: string;
  display_name: string | null;
  category: string | null;
  description: string | null;
  roles: string[];
}

/** One row per permission, in category order, naming every role that holds it. */
function permissionMatrix(views: RoleView[]): PermissionRow[] {
  const byName = new Map<string, PermissionRow>();
  for (const role of views) {
    for (const p of role.permissions) {
      const row = byName.get(p.name) ?? { name: p.name, display_name: p.display_name, category: p.category, description: p.description, roles: [] };
      if (role.name) row.roles.push(role.name);
      byName.set(p.name, row);
    }
  }
  return [...byName.values()].sort((a, b) => (a.category ?? '').localeCompare(b.category ?? '') || a.name.localeCompare(b.name));
}

function printPermissions(ctx: Ctx, views: RoleView[], rows: PermissionRow[]): void {
  const roleNames = views.map((r) => r.name ?? '-');
  const mark = ctx.stdoutIsTTY ? '✓' : 'yes';
  const table = rows.map((r) => [r.category ?? '-', visibleName(r.name), ...roleNames.map((n) => (r.roles.includes(n) ? mark : ''))]);
  ctx.out(renderTable(['CATEGORY', 'PERMISSION', ...roleNames.map((n) => n.toUpperCase())], table, ctx.stdoutIsTTY));
}

/** A name with leading or trailing spaces is shown quoted, so the space is not lost on screen. */
function visibleName(name: string): string {
  return /^\s|\s$/.test(name) ? JSON.stringify(name) : name;
}
