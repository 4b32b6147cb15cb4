// The account's verdict cache on this machine, for the service's runs and for --local: a cache that cannot be
// opened is warned about once, and the run goes on without it.

import type { VerdictCache } from '../../clean/cache/cache.js';
import { openLocalCache } from '../../clean/cache/open.js';
import type { Factory } from '../../factory.js';

export async function openAccountCache(f: Factory, account: string, without: string): Promise<VerdictCache | undefined> {
  try {
    return await openLocalCache(f.dataDir, account);
  } catch (error) {
    f.io.warn(`the verdict cache cannot be opened (${error instanceof Error ? error.message : String(error)}): ${without}`);
    return undefined;
  }
}
