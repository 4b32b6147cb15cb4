import { checkSyntax, dedupeKey } from '../verify/syntax.js';
import { addressInside } from './extract.js';

export type Prefiltered =
  /** `checked`: the address taken from inside the cell (`Name <address>`, mailto:, ` ::: `), when the cell is not one. */
  | { key: string; checked?: string }
  /** `short_row`: the row ends before the email column. */
  | { key?: undefined; checked?: undefined; reason: 'blank' | 'syntax' | 'short_row' };

// The shape nearly every real address has: a dot-atom local part and a lower-case ASCII domain whose labels
// neither start nor end with a hyphen, under an alphabetic TLD. Such a cell is valid and already its own key,
// so the scan of a million rows needs neither the full RFC check nor a new string per row.
const PLAIN = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/;

function plainKey(address: string): string | undefined {
  // A-labels (xn--) must also decode, which only the full check verifies.
  if (address.length > 254 || !PLAIN.test(address) || address.includes('xn--')) return undefined;
  const at = address.lastIndexOf('@');
  if (at > 64) return undefined;
  // Label length (63) is the one rule the pattern does not enforce.
  let labelStart = at + 1;
  for (let i = labelStart; i <= address.length; i++) {
    if (i === address.length || address.charCodeAt(i) === 46) {
      if (i - labelStart > 63) return undefined;
      labelStart = i + 1;
    }
  }
  return address;
}

/**
 * What is decided before anything is sent: blank cells, missing ones and addresses that are not addresses. Every
 * other cell maps to the key its duplicates share (exact local part, lower-case ASCII domain); a cell that wraps an
 * address maps to that address's key, so it is sent once with its duplicates.
 */
export function prefilter(cell: string | undefined): Prefiltered {
  if (cell === undefined) return { reason: 'short_row' };
  const address = cell.trim();
  if (address === '') return { reason: 'blank' };
  const plain = plainKey(address);
  if (plain !== undefined) return { key: plain };
  const syntax = checkSyntax(address);
  if (syntax.ok) return { key: dedupeKey(syntax.local, syntax.domain) };
  // Only a cell that failed the check is looked into, so a clean list pays nothing for this.
  const inside = addressInside(address);
  if (inside === undefined) return { reason: 'syntax' };
  return { key: dedupeKey(inside.syntax.local, inside.syntax.domain), checked: inside.address };
}
