// A cleaned list as the review reads it: a CSV with a header, its email column found as `clean` finds it, and the
// rows whose address has a typo suggestion and no decision yet, each with what a person needs to judge it.

import { type InputLayout, openInput, readRecordBatches } from '../clean/scan/input/index.js';
import { UsageError } from '../errors.js';
import { suggest } from '../library/suggest.js';
import type { Item } from './decisions.js';

export const FIXED = 'email_fixed';
export const SUGGESTION = 'email_suggestion';
/** Written by `clean --fix-typos=replace`: the address as typed, the cell holding the fix. */
const ORIGINAL = 'email_original';
const CONTEXT_ROWS = 8;
const NAME_LIKE = /name|first|last|full|nom|vorname|contact|person/i;

export interface ReviewItem extends Item {
  /** Other cells of the row, name-like columns first: `[column, value]`. */
  context: Array<[string, string]>;
  /** The row's verdict as the file holds it (`risky (possible_typo)`), when it has one. */
  status?: string;
}

export interface ReadList {
  path: string;
  spoolDir: string;
  column?: string;
}

/** Opens the list, refusing what the review cannot write back: a workbook, stdin, no header, not UTF-8. */
export async function openList(o: ReadList): Promise<InputLayout> {
  if (o.path === '-') throw new UsageError('review: give a file, not stdin: the decisions are written back to it');
  const layout = await openInput({ path: o.path, spoolDir: o.spoolDir, column: o.column });
  const refusal = layout.workbook
    ? 'is an Excel workbook; review reads CSV (clean it with --format csv)'
    : !layout.hasHeader
      ? 'has no header row; review reads a list with one, as `mailclean clean` writes it'
      : layout.encoding !== 'utf-8'
        ? `is not UTF-8 (read as ${layout.encoding}); review reads a CSV as \`mailclean clean\` writes it`
        : undefined;
  if (refusal !== undefined) {
    await layout.cleanup();
    throw new UsageError(`${o.path}: ${refusal}`);
  }
  return layout;
}

/** The address a row holds: its email cell, trimmed. */
export function typedOf(layout: InputLayout, fields: readonly string[]): string {
  return (fields[layout.emailColumn] ?? '').trim();
}

/** Every row to review, in the list's order. */
export async function reviewItems(layout: InputLayout): Promise<ReviewItem[]> {
  const { header } = layout;
  const at = (name: string) => header.indexOf(name);
  const [suggestionAt, fixedAt, statusAt, reasonAt] = [SUGGESTION, FIXED, 'email_status', 'email_reason'].map(at);
  const shown = contextColumns(layout);
  const items: ReviewItem[] = [];
  let row = 0;
  for await (const batch of readRecordBatches(layout, { raw: false })) {
    for (const { fields, line } of batch) {
      const typed = typedOf(layout, fields);
      const fix = fixOf(typed, fields, suggestionAt, fixedAt);
      if (fix !== undefined) {
        const context = shown.flatMap((i): Array<[string, string]> => {
          const value = fields[i]?.trim();
          return value ? [[header[i]!, value]] : [];
        });
        const status = [fields[statusAt!], fields[reasonAt!] && `(${fields[reasonAt!]})`].filter(Boolean).join(' ');
        items.push({ row, line, typed, fix, context: context.slice(0, CONTEXT_ROWS), ...(status ? { status } : {}) });
      }
      row++;
    }
  }
  return items;
}

/** The suggestion of a row without a decision: its email_suggestion cell when the list has the column, else computed. */
function fixOf(typed: string, fields: readonly string[], suggestionAt = -1, fixedAt = -1): string | undefined {
  if (fixedAt >= 0 && fields[fixedAt]?.trim()) return undefined;
  const fix = suggestionAt >= 0 ? fields[suggestionAt]?.trim() : suggest(typed);
  return fix && fix.toLowerCase() !== typed.toLowerCase() ? fix : undefined;
}

/** The columns shown beside the address: not the address, nor mailclean's own; those naming a person first. */
function contextColumns(layout: InputLayout): number[] {
  const ours = new Set(layout.ownColumns);
  const theirs = layout.header.flatMap((name, i) =>
    i === layout.emailColumn || ours.has(i) || name === FIXED || name === ORIGINAL ? [] : [i],
  );
  const named = theirs.filter((i) => NAME_LIKE.test(layout.header[i]!));
  return [...named, ...theirs.filter((i) => !named.includes(i))];
}

/** The rows whose email_fixed holds an address, with it: what `review --check` checks. */
export async function fixedRows(layout: InputLayout): Promise<Map<number, string>> {
  const fixedAt = layout.header.indexOf(FIXED);
  const fixes = new Map<number, string>();
  if (fixedAt < 0) return fixes;
  let row = 0;
  for await (const batch of readRecordBatches(layout, { raw: false })) {
    for (const { fields } of batch) {
      const fix = fields[fixedAt]?.trim();
      if (fix) fixes.set(row, fix);
      row++;
    }
  }
  return fixes;
}
