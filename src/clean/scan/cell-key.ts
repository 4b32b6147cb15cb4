import { asciiLower, checkSyntax, dedupeKey, isPlainAddress } from '../../verify/syntax.js';
import { addressInside } from './extract.js';

export type CellKey =
  /**
   * `checked`: the address taken from inside the cell, when the cell is not one. `fixed` (--fix-typos): the address
   * as written with its mistyped domain corrected, whose key `key` then is (typo-fix.ts).
   */
  | { key: string; checked?: string; fixed?: string }
  /** `short_row`: the row ends before the email column. */
  | { key?: undefined; checked?: undefined; fixed?: undefined; reason: 'blank' | 'syntax' | 'short_row' };

/** How a run decides each row's cell; the scan and the write pass use the same one. */
export type CellDecider = (cell: string | undefined) => CellKey;

/**
 * Blank cells, missing ones and addresses that are not addresses are decided before anything is sent; every other
 * cell maps to the key its duplicates share (dedupeKey), a wrapped address to that address's key.
 */
export function keyOfCell(cell: string | undefined, caseSensitive = false): CellKey {
  if (cell === undefined) return { reason: 'short_row' };
  const address = cell.trim();
  if (address === '') return { reason: 'blank' };
  // Such a cell is valid and already its own key: a million rows need neither the full check nor a new string each.
  if (isPlainAddress(address)) return { key: caseSensitive ? address : asciiLower(address) };
  const syntax = checkSyntax(address);
  if (syntax.ok) return { key: dedupeKey(syntax.local, syntax.domain, caseSensitive) };
  // Only a cell that failed the check is looked into, so a clean list pays nothing for this.
  const inside = addressInside(address);
  if (inside === undefined) return { reason: 'syntax' };
  return { key: dedupeKey(inside.syntax.local, inside.syntax.domain, caseSensitive), checked: inside.address };
}
