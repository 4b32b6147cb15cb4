// Cells that hold an address without being one (`Ada <ada@example.com>`, mailto:, Google Contacts' ` ::: `): the
// address inside is checked; the cell is written back untouched.
import { checkSyntax, type SyntaxResult } from '../../verify/syntax.js';

export type Found = { address: string; syntax: Extract<SyntaxResult, { ok: true }> };

/** Of several, the first well-formed one, so a row never costs more than one address. */
export function addressInside(cell: string): Found | undefined {
  // The cell as a whole already failed; each value of a ` ::: ` list may be a bare address, or wrapped.
  const several = cell.includes(':::');
  for (const part of several ? cell.split(':::') : [cell]) {
    const value = part.trim();
    for (const candidate of several ? [value, ...unwrap(value)] : unwrap(value)) {
      const syntax = checkSyntax(candidate);
      if (syntax.ok) return { address: candidate, syntax };
    }
  }
  return undefined;
}

/** What a `Name <…>` or `mailto:` wrapper holds (a mailto: link may name several, comma-separated). */
function unwrap(text: string): string[] {
  let inner = text;
  if (inner.endsWith('>')) {
    // The last `<`: a display name may itself hold one inside quotes.
    const open = inner.lastIndexOf('<');
    if (open < 0) return [];
    inner = inner.slice(open + 1, -1).trim();
  }
  if (!/^mailto:/i.test(inner)) return inner === text ? [] : [inner];
  const query = inner.indexOf('?');
  const to = inner.slice(7, query < 0 ? undefined : query);
  return to.split(',').map((address) => decodePercent(address).trim());
}

/** A mailto: link percent-encodes what a URL cannot carry (RFC 6068); a malformed escape is left as written. */
function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
