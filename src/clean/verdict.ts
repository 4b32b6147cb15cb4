// What mailclean says about one address, whoever decided it (the local prefilter or the service).
import type { EngineReason } from '../verify/index.js';
import type { Prefiltered } from './prefilter.js';
import type { RecordReason } from './answers.js';

export type Status = 'valid' | 'invalid' | 'risky' | 'unknown' | 'unchecked' | (string & {});

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

/** What each `email_status` means (`clean --help`, docs/json.md). A status the service adds is passed through. */
export const STATUS_MEANINGS = {
  valid: 'the address can receive mail',
  risky: 'it may take mail but is a poor bet: see the reason',
  invalid: 'it cannot receive mail, or is not an address',
  unknown: 'no definite answer: DNS, mail server or service did not say',
  unchecked: 'not checked in this run (allowance, --max-spend, errors); --resume',
} as const satisfies Record<'valid' | 'risky' | 'invalid' | 'unknown' | 'unchecked', string>;

/** Every status a row can get, best first. */
export const STATUSES: readonly string[] = Object.keys(STATUS_MEANINGS);

/** Every `email_reason` mailclean writes; typed so that a new reason cannot be added without its meaning. */
type Reason = Exclude<
  Extract<Prefiltered, { reason: string }>['reason'] | EngineReason | RecordReason | 'rejected_by_service' | 'no_result',
  ''
>;

/**
 * What each `email_reason` means (`clean --help`, docs/json.md). Empty: valid, unchecked, or nothing said
 * why. A reason the service sends itself is passed through.
 */
export const REASON_MEANINGS: Readonly<Record<Reason, string>> = {
  blank: 'the cell is empty (decided here, never sent)',
  syntax: 'not a well-formed address (decided here, never sent)',
  short_row: 'the row ends before the email column (decided here, never sent)',
  rejected_by_service: 'the service refused it as input (HTTP 422)',
  rejected: 'the service called it invalid without saying why',
  invalid_domain: 'the service says the domain takes no mail',
  no_result: 'the service twice answered without a record for it',
  no_domain: '--local: DNS says the domain does not exist',
  no_mx: '--local: the domain has no mail host (MX, A or AAAA)',
  null_mx: '--local: the domain refuses all mail (null MX)',
  reserved_domain: 'judged without DNS: a reserved TLD (.test, .invalid, ...)',
  mailbox_rejected: '--local --smtp: the mail server refused the mailbox',
  possible_typo: '--local: a mistyped domain; see email_suggestion',
  disposable: 'a throwaway-address domain',
  catch_all: '--local --smtp: the server takes any mailbox',
  role: '--local: a function (info@, no-reply@), not a person',
  dns_unavailable: '--local: DNS gave no answer',
  greylisted: '--local --smtp: the mail server said try later',
  smtp_unavailable: '--local --smtp: the mail server could not be asked',
};

/** `  name  meaning` lines with the names in one column, for help text. */
export function meaningLines(meanings: Readonly<Record<string, string>>): string {
  const width = Math.max(...Object.keys(meanings).map((name) => name.length));
  return Object.entries(meanings)
    .map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`)
    .join('\n');
}

export const RESULT_COLUMNS = ['email_status', 'email_valid', 'email_disposable', 'email_valid_domain', 'email_reason', 'email_checked_at'] as const;
/** Appended after the six by `clean --local`, whose engine suggests fixes for mistyped domains. */
export const SUGGESTION_COLUMN = 'email_suggestion';
/**
 * Appended last when some cell held its address inside something else (`Name <address>`, mailto:, ` ::: `): the
 * address checked, on the rows where it is not the cell itself. Only then, so other lists keep their columns.
 */
export const CHECKED_COLUMN = 'email_checked';

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
