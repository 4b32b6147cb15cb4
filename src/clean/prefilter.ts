import { checkSyntax, dedupeKey } from '../verify/syntax.js';

export type Prefiltered = { key: string } | { key?: undefined; reason: 'blank' | 'syntax' };

/**
 * What is decided before anything is sent: blank cells and addresses that are not addresses. Every other
 * cell maps to the key its duplicates share (exact local part, lower-case ASCII domain).
 */
export function prefilter(cell: string | undefined): Prefiltered {
  const address = (cell ?? '').trim();
  if (address === '') return { reason: 'blank' };
  const syntax = checkSyntax(address);
  if (!syntax.ok) return { reason: 'syntax' };
  return { key: dedupeKey(syntax.local, syntax.domain) };
}
