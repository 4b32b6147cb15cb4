// `mailclean cache`: the verdict cache of this profile's cleaning account on this machine.
import type { Command } from '@commander-js/extra-typings';
import type { AccountState } from '../clean/state/account-state.js';
import type { CacheStats } from '../clean/state/verdict-cache.js';
import { parseDuration } from '../config/duration.js';
import type { Factory } from '../factory.js';
import { fieldsOf } from '../fields.js';
import type { JsonFlag } from '../io/json.js';
import { renderPairs } from '../io/table.js';
import { formatCount } from '../quantities.js';
import { cleaningAccountState } from './common/account-state.js';
import { jsonOption } from './common/inputs.js';
import type { Runner } from './index.js';

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
  const shared = '--shared <redis-url>';
  const sharedHelp =
    'the Redis the account shares with other runners (else MAILCLEAN_REDIS_URL, else the profile key `shared`)';
  cmd
    .command('stats')
    .description('how many answers the cache holds, how old, how large')
    .option(shared, sharedHelp)
    .addOption(jsonOption())
    .action(run((f, opts) => cacheStats(opts, f)));
  cmd
    .command('clear')
    .description('forget answers (all, or those older than --older-than)')
    .option('--older-than <duration>', 'only answers older than this, e.g. 90d')
    .option(shared, sharedHelp)
    .addOption(jsonOption())
    .action(run((f, opts) => cacheClear(opts, f)));
  cmd
    .command('path')
    .description('print where the cache is: the file, or the Redis URL and key when shared')
    .option(shared, sharedHelp)
    .action(run((f, opts) => cachePathCommand(f, opts)));
}

export const CACHE_STATS_FIELDS = fieldsOf<CacheStats>({ entries: true, oldest: true, newest: true, bytes: true });

/** The account's state where `clean` keeps it: the shared Redis when one is named, else the data directory. */
function accountState(f: Factory, shared: string | undefined): Promise<AccountState> {
  return cleaningAccountState(f, shared, 'cache');
}

export async function cacheStats(o: { json?: JsonFlag; shared?: string }, f: Factory): Promise<number> {
  const cache = await (await accountState(f, o.shared)).cache();
  const stats = await cache.stats();
  if (o.json !== undefined) f.io.json(stats, o.json, CACHE_STATS_FIELDS);
  else {
    const n = formatCount;
    const pairs: Array<[string, string]> = [
      ['Answers', n(stats.entries)],
      ['Oldest', stats.oldest ?? '-'],
      ['Newest', stats.newest ?? '-'],
      [
        'Size',
        stats.bytes === null
          ? '-'
          : `${n(stats.bytes)} bytes${stats.entries ? ` (${Math.round(stats.bytes / stats.entries)} per answer)` : ''}`,
      ],
    ];
    f.io.out(renderPairs(pairs));
  }
  return 0;
}

export async function cacheClear(
  o: { olderThan?: string; json?: JsonFlag; shared?: string },
  f: Factory,
): Promise<number> {
  const before = o.olderThan !== undefined ? Date.now() - parseDuration(o.olderThan, '--older-than') : undefined;
  const cache = await (await accountState(f, o.shared)).cache();
  const removed = await cache.clear(before);
  if (o.json !== undefined) f.io.json({ removed }, o.json, ['removed']);
  else
    f.io.note(
      `Removed ${formatCount(removed)} answer${removed === 1 ? '' : 's'}${o.olderThan ? ` older than ${o.olderThan}` : ''} from the cache.`,
    );
  return 0;
}

export async function cachePathCommand(f: Factory, o: { shared?: string } = {}): Promise<number> {
  f.io.out(`${(await accountState(f, o.shared)).cacheLocation}\n`);
  return 0;
}
