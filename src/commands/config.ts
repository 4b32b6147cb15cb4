import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { keyInfo, maskSecret, PROFILE_KEYS } from '../config/keys.js';
import { parseRate } from '../config/rate.js';
import { redactUrl } from '../api/redact.js';
import { jsonOption } from './inputs.js';

export function define(cmd: Command, run: Runner): void {
  const keys = PROFILE_KEYS.map((k) => `  ${k.key.padEnd(10)} ${k.description}${k.managed ? ' (set by login)' : ''}`).join('\n');
  cmd.addHelpText('after', `\nKeys:\n${keys}\n\nUse --profile NAME to work on another profile.`);
  cmd.command('get <key>').description('print one setting').action(run(get));
  cmd.command('set <key> <value>').description('change a setting (creates the profile if needed)').action(run(set));
  cmd.command('unset <key>').description('remove a setting').action(run(unset));
  cmd.command('list').description("list the profile's settings (tokens masked)").addOption(jsonOption()).action(run(list));
  cmd.command('path').description('print the path of the profiles file').action(run(path));
}

function known(key: string) {
  const info = keyInfo(key);
  if (!info) throw new UsageError(`unknown key "${key}"`, `keys: ${PROFILE_KEYS.map((k) => k.key).join(', ')}`);
  return info;
}

async function get(ctx: Ctx, _opts: Record<string, unknown>, [key]: unknown[]): Promise<number> {
  const info = known(String(key));
  if (info.secret) throw new UsageError(`${info.key} is a secret and is not printed here`, 'use `mailclean auth token` in scripts');
  await ctx.requireKnownProfile();
  const value = (await ctx.settings())[info.key];
  if (value === undefined) return 1;
  ctx.out(`${redactUrl(value)}\n`);
  return 0;
}

async function set(ctx: Ctx, _opts: Record<string, unknown>, [key, value]: unknown[]): Promise<number> {
  const info = known(String(key));
  const text = String(value);
  if (info.secret) throw new UsageError(`${info.key} cannot be set from an argument (it would show in your shell history)`, 'use `mailclean login` or `mailclean login --with-token`');
  if (info.key === 'api-url' || info.key === 'clean-url') checkUrl(info.key, text);
  if (info.key === 'rate') parseRate(text, 'rate');
  (await ctx.store()).update(ctx.profileName, { [info.key]: text.replace(/\/+$/, '') });
  return 0;
}

async function unset(ctx: Ctx, _opts: Record<string, unknown>, [key]: unknown[]): Promise<number> {
  const info = known(String(key));
  await ctx.requireKnownProfile();
  (await ctx.store()).update(ctx.profileName, { [info.key]: undefined });
  return 0;
}

async function list(ctx: Ctx, opts: Record<string, unknown>): Promise<number> {
  await ctx.requireKnownProfile();
  const settings = await ctx.settings();
  const shown = Object.fromEntries(
    Object.entries(settings)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => [k, keyInfo(k)?.secret ? maskSecret(v) : redactUrl(v)]),
  );
  if (opts.json !== undefined) ctx.json(shown, opts.json as string | boolean, PROFILE_KEYS.map((k) => k.key));
  else ctx.out(Object.entries(shown).map(([k, v]) => `${k}=${v}\n`).join(''));
  return 0;
}

async function path(ctx: Ctx): Promise<number> {
  ctx.out(`${(await ctx.store()).path}\n`);
  return 0;
}

function checkUrl(key: string, value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`${key}: "${value}" is not an http or https URL`);
  }
}
