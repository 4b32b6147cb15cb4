// `mailclean cache`: the verdict cache of this profile's cleaning account on this machine.
import { parseDuration } from '../config/duration.js';
import { ExitCode, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { renderPairs } from '../io/table.js';
import { formatCount } from '../quantities.js';
import { cleaningAccountState, shownAccountState } from './common/account-state.js';
import { CACHE_STATS_FIELDS } from './common/json-fields.js';

export async function cacheStats(o: { json?: JsonFlag; shared?: string }, f: Factory): Promise<number> {
  const state = await shownAccountState(f, o.shared, 'cache');
  const stats = state ? await (await state.cache()).stats() : { entries: 0, oldest: null, newest: null, bytes: null };
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
  o: { olderThan?: string; json?: JsonFlag; shared?: string; yes?: boolean },
  f: Factory,
): Promise<number> {
  const before = o.olderThan !== undefined ? f.io.clock.now() - parseDuration(o.olderThan, '--older-than') : undefined;
  const cache = await (await cleaningAccountState(f, o.shared, 'cache')).cache();
  if (!o.yes && !(await clearAgreed(f, o.olderThan, (await cache.stats()).entries))) {
    f.io.note('Nothing was removed.');
    return ExitCode.ok;
  }
  const removed = await cache.clear(before);
  if (o.json !== undefined) f.io.json({ removed }, o.json, ['removed']);
  else
    f.io.note(
      `Removed ${formatCount(removed)} answer${removed === 1 ? '' : 's'}${o.olderThan ? ` older than ${o.olderThan}` : ''} from the cache.`,
    );
  return 0;
}

/**
 * Every answer in the cache was paid for, and nothing brings one back: a terminal is asked (no by default); elsewhere
 * --yes must say so.
 */
async function clearAgreed(f: Factory, olderThan: string | undefined, entries: number): Promise<boolean> {
  const which = olderThan
    ? `the answers older than ${olderThan}`
    : entries === 1
      ? 'its one answer'
      : `all ${formatCount(entries)} answers`;
  if (!f.io.canPrompt)
    throw new UsageError(
      `cache clear removes ${which} from the cache, which were paid for; nothing was removed`,
      'pass --yes to clear without asking',
    );
  f.io.say(`This removes ${which} from the cache: clean and verify then pay again for those addresses.`);
  const { promptConfirm } = await import('../io/prompt.js');
  return promptConfirm(f.io, 'Remove them?', false);
}

export async function cachePathCommand(f: Factory, o: { shared?: string } = {}): Promise<number> {
  f.io.data(`${(await cleaningAccountState(f, o.shared, 'cache')).cacheLocation}\n`);
  return 0;
}
