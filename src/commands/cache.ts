// `mailclean cache`: the verdict cache of this profile's cleaning account on this machine.
import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors.js';
import type { JsonFlag } from '../io/json.js';
import { renderPairs } from '../io/table.js';
import { parseDuration } from '../config/duration.js';
import { cachePath, openLocalCache } from '../clean/cache/open.js';
import { cleaningAccountKey } from './shared/sessions.js';
import { jsonOption } from './shared/inputs.js';

export function define(cmd: Command, run: Runner): void {
  cmd.addHelpText(
    'after',
    `
Every answer the cleaning service gives is kept per account and service, with its time, so a later clean of
any list does not pay again for an address answered within --max-age (default 30d). The cache of the
signed-in cleaning account of this profile lives in the data directory (MAILCLEAN_DATA_DIR).`,
  );
  cmd.command('stats').description('how many answers the cache holds, how old, how large').addOption(jsonOption()).action(run((f, opts) => cacheStats({ json: opts.json as JsonFlag }, f)));
  cmd
    .command('clear')
    .description('forget answers (all, or those older than --older-than)')
    .option('--older-than <duration>', 'only answers older than this, e.g. 90d')
    .addOption(jsonOption())
    .action(run((f, opts) => cacheClear({ olderThan: opts.olderThan as string | undefined, json: opts.json as JsonFlag }, f)));
  cmd.command('path').description('print the path of the cache file').action(run((f) => cachePathCommand(f)));
}

async function accountOf(f: Factory): Promise<string> {
  (await f.profile()).requireKnown();
  const key = await cleaningAccountKey(f);
  if (!key) throw new UsageError(`profile "${f.profileName}" has no cleaning account (a clean-url and a cleaning token): the cache is kept per account`, 'run `mailclean login --clean-url URL`');
  return key;
}

export async function cacheStats(o: { json?: JsonFlag }, f: Factory): Promise<number> {
  const cache = await openLocalCache(f.dataDir, await accountOf(f));
  try {
    const stats = await cache.stats();
    if (o.json !== undefined) f.io.json(stats, o.json, ['entries', 'oldest', 'newest', 'bytes']);
    else {
      const n = (x: number) => x.toLocaleString('en-US');
      const pairs: Array<[string, string]> = [
        ['Answers', n(stats.entries)],
        ['Oldest', stats.oldest ?? '-'],
        ['Newest', stats.newest ?? '-'],
        ['Size', stats.bytes === null ? '-' : `${n(stats.bytes)} bytes${stats.entries ? ` (${Math.round(stats.bytes / stats.entries)} per answer)` : ''}`],
      ];
      f.io.out(renderPairs(pairs));
    }
  } finally {
    await cache.close();
  }
  return 0;
}

export async function cacheClear(o: { olderThan?: string; json?: JsonFlag }, f: Factory): Promise<number> {
  const before = o.olderThan !== undefined ? Date.now() - parseDuration(o.olderThan, '--older-than') : undefined;
  const cache = await openLocalCache(f.dataDir, await accountOf(f));
  try {
    const removed = await cache.clear(before);
    if (o.json !== undefined) f.io.json({ removed }, o.json, ['removed']);
    else f.io.note(`Removed ${removed.toLocaleString('en-US')} answer${removed === 1 ? '' : 's'}${o.olderThan ? ` older than ${o.olderThan}` : ''} from the cache.`);
  } finally {
    await cache.close();
  }
  return 0;
}

export async function cachePathCommand(f: Factory): Promise<number> {
  f.io.out(`${cachePath(f.dataDir, await accountOf(f))}\n`);
  return 0;
}
