// What mailclean says about one address, whoever decided it (the local prefilter or the service).

export type Status = 'valid' | 'invalid' | 'risky' | 'unknown' | 'unchecked' | (string & {});

/** Every status a row can get, best first. */
export const STATUSES: readonly string[] = ['valid', 'risky', 'invalid', 'unknown', 'unchecked'];

export interface Verdict {
  /** Dedupe key: local part as given, domain lower-case ASCII. */
  key: string;
  status: Status;
  valid: boolean | null;
  disposable: boolean | null;
  validDomain: boolean | null;
  reason: string;
  checkedAt: string;
  /** A likely intended address for a mistyped domain (from the local engine). */
  suggestion?: string;
}

export const RESULT_COLUMNS = ['email_status', 'email_valid', 'email_disposable', 'email_valid_domain', 'email_reason', 'email_checked_at'] as const;
/** Appended after the six by `clean --local`, whose engine suggests fixes for mistyped domains. */
export const SUGGESTION_COLUMN = 'email_suggestion';

export function localVerdict(key: string, reason: string): Verdict {
  return { key, status: 'invalid', valid: false, disposable: null, validDomain: null, reason, checkedAt: '' };
}

export function uncheckedVerdict(key: string): Verdict {
  return { key, status: 'unchecked', valid: null, disposable: null, validDomain: null, reason: '', checkedAt: '' };
}

/** The appended values, as text for CSV. */
export function verdictCells(v: Verdict, withSuggestion = false): string[] {
  const b = (x: boolean | null) => (x === null ? '' : String(x));
  const cells = [v.status, b(v.valid), b(v.disposable), b(v.validDomain), v.reason, v.checkedAt];
  if (withSuggestion) cells.push(v.suggestion ?? '');
  return cells;
}

/** The appended values, typed, for JSON. */
export function verdictFields(v: Verdict, withSuggestion = false): Record<string, string | boolean | null> {
  const fields: Record<string, string | boolean | null> = {
    email_status: v.status,
    email_valid: v.valid,
    email_disposable: v.disposable,
    email_valid_domain: v.validDomain,
    email_reason: v.reason || null,
    email_checked_at: v.checkedAt || null,
  };
  if (withSuggestion) fields[SUGGESTION_COLUMN] = v.suggestion ?? null;
  return fields;
}
