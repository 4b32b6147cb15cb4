import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors.js';
import { keyInfo, maskSecret, PROFILE_KEYS } from '../config/keys.js';
import { parseRate } from '../config/rate.js';
import { validateUrl } from '../config/urls.js';
import { redactUrl } from '../api/redact.js';
import { jsonOption } from './shared/inputs.js';

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

async function get(f: Factory, _opts: Record<string, unknown>, [key]: unknown[]): Promise<number> {
  const info = known(String(key));
  if (info.secret) throw new UsageError(`${info.key} is a secret and is not printed here`, 'use `mailclean auth token` in scripts');
  (await f.profile()).requireKnown();
  const value = ((await f.profile()).settings())[info.key];
  if (value === undefined) return 1;
  f.io.out(`${redactUrl(value)}\n`);
  return 0;
}

async function set(f: Factory, _opts: Record<string, unknown>, [key, value]: unknown[]): Promise<number> {
  const info = known(String(key));
  const text = String(value);
  if (info.secret) throw new UsageError(`${info.key} cannot be set from an argument (it would show in your shell history)`, 'use `mailclean login` or `mailclean login --with-token`');
  if (info.key === 'api-url' || info.key === 'clean-url') validateUrl(text, info.key);
  if (info.key === 'rate') parseRate(text, 'rate');
  (await f.profile()).updateSettings({ [info.key]: text.replace(/\/+$/, '') });
  return 0;
}

async function unset(f: Factory, _opts: Record<string, unknown>, [key]: unknown[]): Promise<number> {
  const info = known(String(key));
  (await f.profile()).requireKnown();
  (await f.profile()).updateSettings({ [info.key]: undefined });
  return 0;
}

async function list(f: Factory, opts: Record<string, unknown>): Promise<number> {
  (await f.profile()).requireKnown();
  const settings = (await f.profile()).settings();
  const shown = Object.fromEntries(
    Object.entries(settings)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => [k, keyInfo(k)?.secret ? maskSecret(v) : redactUrl(v)]),
  );
  if (opts.json !== undefined) f.io.json(shown, opts.json as string | boolean, PROFILE_KEYS.map((k) => k.key));
  else f.io.out(Object.entries(shown).map(([k, v]) => `${k}=${v}\n`).join(''));
  return 0;
}

async function path(f: Factory): Promise<number> {
  f.io.out(`${(await f.profile()).path}\n`);
  return 0;
}
