// What a checker knows of a list before checking: its journal's answers, and a verdict cache that cannot be opened
// does not stop a run (it is warned about once, saying what it costs).
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { AccountState, MachineState } from '../state/account-state.js';
import type { VerdictCache } from '../state/verdict-cache.js';
import { VerdictTable } from '../verdict/verdict-table.js';

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

/** Opens the cache on first asking, not before: a run that needs none (all answered, or --max-age 0) never opens it. */
export function cacheWhenAsked(
  state: AccountState,
  warn: (message: string) => void,
  without: string,
): () => Promise<VerdictCache | undefined> {
  let opened: Promise<VerdictCache | undefined> | undefined;
  return () => (opened ??= openCacheOrWarn(state, warn, without));
}

/**
 * This list's answers in its journal, by address number, matched against the list's index as the journal is read:
 * an answer for an address not in the list (another version's) is not kept. Empty with `restart`, read not at all.
 */
export function journaledOf(
  state: MachineState,
  list: { fingerprint: string; unique: UniqueKeys; restart: boolean },
): { answers: VerdictTable; badLines: number } {
  const answers = new VerdictTable(list.unique);
  if (list.restart) return { answers, badLines: 0 };
  // An answer that says the address's kind goes in by number; one that does not needs the key, to work it out.
  const { badLines } = state.readSavedAnswers(list.fingerprint, list.unique, (ordinal, verdict, key) => {
    if (verdict.free !== undefined) answers.set(ordinal, verdict);
    else answers.setKey(key(), verdict, ordinal);
  });
  return { answers, badLines };
}
