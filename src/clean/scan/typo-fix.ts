// --fix-typos: a row whose address has a mistyped domain (verify/typo.ts: the domain alone decides, no DNS) is
// deduplicated, checked and paid as the address it was meant to be, so the typo itself is never sent.
import { suggestDomain } from '../../verify/typo.js';
import type { CellDecider } from './cell-key.js';

/** Domains whose fix is remembered at once: a list of millions of domains does not keep a map of them all. */
const REMEMBERED = 65_536;

/** `decide`, with a mistyped domain's fix put in the key and in `fixed` (the address as written, corrected). */
export function fixingTypos(decide: CellDecider): CellDecider {
  const fixes = new Map<string, string | null>();
  const fixOf = (domain: string): string | null => {
    let fix = fixes.get(domain);
    if (fix === undefined) {
      if (fixes.size === REMEMBERED) fixes.clear();
      fixes.set(domain, (fix = suggestDomain(domain) ?? null));
    }
    return fix;
  };
  return (cell) => {
    const decided = decide(cell);
    const { key } = decided;
    if (key === undefined) return decided;
    const at = key.lastIndexOf('@');
    const fix = fixOf(key.slice(at + 1));
    if (fix === null) return decided;
    const typed = decided.checked ?? cell!.trim();
    const fixed = `${typed.slice(0, typed.lastIndexOf('@') + 1)}${fix}`;
    return { ...decided, key: `${key.slice(0, at + 1)}${fix}`, fixed };
  };
}
