// What a checker knows of a list before checking: its journal's answers, and the cache (warned of if it cannot open).
import { messageOf } from '../../errors.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { AccountState, MachineState } from '../state/account-state.js';
import type { VerdictCache } from '../state/verdict-cache.js';
import { VerdictTable } from '../verdict/verdict-table.js';

/** A run that needs no cache (all answered, or --max-age 0) never opens it. */
export function cacheWhenAsked(
  state: AccountState,
  warn: (message: string) => void,
  without: string,
): () => Promise<VerdictCache | undefined> {
  let opened: Promise<VerdictCache | undefined> | undefined;
  const open = async () => {
    try {
      return await state.cache();
    } catch (error) {
      warn(`the verdict cache cannot be opened (${messageOf(error)}): ${without}`);
      return undefined;
    }
  };
  return () => (opened ??= open());
}

/** This list's journaled answers by address number; an answer for an address not in the list is not kept. */
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
