import type { Command } from '@commander-js/extra-typings';
import { PROFILE_KEYS } from '../../config/keys.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  const keys = PROFILE_KEYS.map(
    (k) => `  ${k.key.padEnd(14)} ${k.description}${k.managed ? ' (set by login)' : ''}`,
  ).join('\n');
  cmd.addHelpText('after', `\nKeys:\n${keys}\n\nUse --profile NAME to work on another profile.`);
  cmd
    .command('get <key>')
    .description('print one setting')
    .action(run(async (f, _opts, [key]) => (await import('../config.js')).get({ key: String(key) }, f)));
  cmd
    .command('set <key> <value>')
    .description('change a setting (creates the profile if needed)')
    .action(
      run(async (f, _opts, [key, value]) =>
        (await import('../config.js')).set({ key: String(key), value: String(value) }, f),
      ),
    );
  cmd
    .command('unset <key>')
    .description('remove a setting')
    .action(run(async (f, _opts, [key]) => (await import('../config.js')).unset({ key: String(key) }, f)));
  cmd
    .command('list')
    .description("list the profile's settings (tokens masked)")
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../config.js')).list({ json: opts.json }, f)));
  cmd
    .command('path')
    .description('print the path of the profiles file')
    .action(run(async (f) => (await import('../config.js')).path(f)));
}
