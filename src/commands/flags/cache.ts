import type { Command } from '@commander-js/extra-typings';
import { jsonOption, sharedOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  cmd.addHelpText(
    'after',
    `
Every answer the cleaning service gives is kept per account and service, with its time, so a later clean of
any list does not pay again for an address answered within --max-age (default 30d). The cache of the
signed-in cleaning account of this profile lives in the data directory (MAILCLEAN_DATA_DIR), or, when the
account's state is shared (--shared, MAILCLEAN_REDIS_URL or the profile key \`shared\`), in that Redis: the
same store \`clean\` uses.`,
  );
  const shared = () => sharedOption('the Redis the account shares with other runners');
  cmd
    .command('stats')
    .description('how many answers the cache holds, how old, how large')
    .addOption(shared())
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../cache.js')).cacheStats(opts, f)));
  cmd
    .command('clear')
    .description('forget answers (all, or those older than --older-than); asks first, as they were paid for')
    .option('--older-than <duration>', 'only answers older than this, e.g. 90d')
    .option('-y, --yes', 'clear without asking (needed where nobody can be asked: a pipe, CI)')
    .addOption(shared())
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../cache.js')).cacheClear(opts, f)));
  cmd
    .command('path')
    .description('print where the cache is: the file, or the Redis URL and key when shared')
    .addOption(shared())
    .action(run(async (f, opts) => (await import('../cache.js')).cachePathCommand(f, opts)));
}
