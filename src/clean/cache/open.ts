import { join } from 'node:path';
import type { VerdictCache } from './cache.js';

/** Where an account's cache lives on this machine. */
export function cachePath(dataDir: string, account: string): string {
  return join(dataDir, 'cache', `${account}.sqlite`);
}

/** The account's cache on this machine (SQLite, loaded only when a run uses it). */
export async function openLocalCache(dataDir: string, account: string): Promise<VerdictCache> {
  const { SqliteVerdictCache } = await import('./sqlite.js');
  return new SqliteVerdictCache(cachePath(dataDir, account));
}
