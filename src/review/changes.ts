// What a review writes into its list: the decisions (email_fixed, a rejected suggestion's cell emptied), then, when
// the fixes are checked, each fix's verdict in its row's verdict columns, as `clean --fix-typos` writes them.
import { RESULT_COLUMNS } from '../clean/verdict/verdict.js';
import { suggest } from '../library/suggest.js';
import type { VerifyResult } from '../library/types.js';
import type { Decision } from './decisions.js';
import { FIXED, SUGGESTION } from './list.js';
import type { ListChange } from './rewrite.js';

/** The decisions as cells; a decision whose row holds another address by now is left out and counted in `stale`. */
export function decisionsChange(
  decisions: ReadonlyMap<number, Decision>,
  header: readonly string[],
): ListChange & { stale: number } {
  const kinds = new Set([...decisions.values()].map((d) => d.kind));
  // A list without the column had its suggestions computed: a rejected one is kept from coming back by the column,
  // which every other row then gets with its own suggestion.
  const addsSuggestions = kinds.has('reject') && !header.includes(SUGGESTION);
  const change = {
    columns: [...(kinds.has('accept') ? [FIXED] : []), ...(kinds.has('reject') ? [SUGGESTION] : [])],
    stale: 0,
    cells(row: number, _fields: readonly string[], typed: string): Record<string, string> | undefined {
      const decision = decisions.get(row);
      if (decision !== undefined && decision.typed !== typed) change.stale++;
      const mine = decision?.typed === typed ? decision : undefined;
      const cells: Record<string, string> = {};
      if (addsSuggestions && mine?.kind !== 'reject') cells[SUGGESTION] = suggest(typed) ?? '';
      if (mine?.kind === 'accept') cells[FIXED] = mine.address;
      if (mine?.kind === 'reject') cells[SUGGESTION] = '';
      return cells;
    },
  };
  return change;
}

/** Columns a fix's verdict fills when the list has them already; the eight result columns are added when missing. */
const WHEN_PRESENT = ['email_provider', 'email_service_status', 'email_checked_by'] as const;

/** Each fixed row's verdict columns from its fix's verdict, where the row still holds that fix. */
export function verdictsChange(
  fixes: ReadonlyMap<number, string>,
  verdicts: ReadonlyMap<string, VerifyResult>,
  header: readonly string[],
): ListChange {
  const fixedAt = header.indexOf(FIXED);
  const optional = WHEN_PRESENT.filter((name) => header.includes(name));
  return {
    columns: [...RESULT_COLUMNS, ...optional],
    cells(row, fields) {
      const fix = fixes.get(row);
      const verdict = fix === undefined ? undefined : verdicts.get(fix);
      if (verdict === undefined || verdict.status === 'unchecked' || fields[fixedAt]?.trim() !== fix) return undefined;
      const cells = verdictCells(verdict);
      return Object.fromEntries([...RESULT_COLUMNS, ...optional].map((name) => [name, cells[name]]));
    },
  };
}

const text = (value: boolean | string | null) => (value === null ? '' : String(value));

function verdictCells(
  v: VerifyResult,
): Record<(typeof RESULT_COLUMNS)[number] | (typeof WHEN_PRESENT)[number], string> {
  return {
    email_status: v.status,
    email_valid: text(v.valid),
    email_disposable: text(v.disposable),
    email_valid_domain: text(v.validDomain),
    email_reason: v.reason,
    email_checked_at: text(v.checkedAt),
    email_free: text(v.free),
    email_role: text(v.role),
    email_provider: text(v.provider),
    email_service_status: text(v.serviceStatus),
    email_checked_by: v.checker,
  };
}
