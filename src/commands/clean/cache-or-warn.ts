// A verdict cache that cannot be opened does not stop a run: it is warned about once, saying what it costs.
import type { AccountState } from '../../clean/state/account-state.js';
import type { VerdictCache } from '../../clean/state/verdict-cache.js';
import type { Factory } from '../../factory.js';

export async function cacheOrWarn(f: Factory, state: AccountState, without: string): Promise<VerdictCache | undefined> {
  try {
    return await state.cache();
  } catch (error) {
    f.io.warn(
      `the verdict cache cannot be opened (${error instanceof Error ? error.message : String(error)}): ${without}`,
    );
    return undefined;
  }
}
