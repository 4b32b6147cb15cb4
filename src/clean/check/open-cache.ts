// A verdict cache that cannot be opened does not stop a run: it is warned about once, saying what it costs.
import type { AccountState } from '../state/account-state.js';
import type { VerdictCache } from '../state/verdict-cache.js';

export async function openCacheOrWarn(
  state: AccountState,
  warn: (message: string) => void,
  without: string,
): Promise<VerdictCache | undefined> {
  try {
    return await state.cache();
  } catch (error) {
    warn(`the verdict cache cannot be opened (${error instanceof Error ? error.message : String(error)}): ${without}`);
    return undefined;
  }
}

/** The answers of `saved` for this list's addresses only (a journal may hold another version's). */
export function ofList<V>(saved: ReadonlyMap<string, V>, list: { ordinal(key: string): number }): Map<string, V> {
  const mine = new Map<string, V>();
  for (const [key, verdict] of saved) if (list.ordinal(key) >= 0) mine.set(key, verdict);
  return mine;
}
