import type { EngineReason } from '../../verify/index.js';
import { isFreeProvider, isRoleAccount } from '../../verify/lists.js';
import type { RecordReason } from '../check/service/answers.js';
import type { CellKey } from '../scan/cell-key.js';

export type Status = 'valid' | 'invalid' | 'risky' | 'unknown' | 'unchecked' | (string & {});

export interface Verdict {
  key: string;
  status: Status;
  valid: boolean | null;
  disposable: boolean | null;
  validDomain: boolean | null;
  reason: string;
  checkedAt: string;
  suggestion?: string;
  /** The status word the cleaning service itself sent (`status` is always one of STATUSES). */
  serviceStatus?: string;
  decidedBy?: 'precheck' | 'local';
  /** A free-mail provider's address, a role address: set by the engine; else read from `key` when written. */
  free?: boolean;
  role?: boolean;
  /** The mail provider behind the address's domain (verify/provider-hosts.ts), where this run's DNS told it. */
  provider?: string;
}

/** What each `email_status` means (`clean --help`, docs/json.md): every checker's answer is one of these. */
export const STATUS_MEANINGS = {
  valid: 'the address can receive mail',
  risky: 'it may take mail but is a poor bet: see the reason',
  invalid: 'it cannot receive mail, or is not an address',
  unknown: 'no definite answer: DNS, mail server or service did not say',
  unchecked: 'not checked in this run (allowance, --max-spend, errors); --resume',
} as const satisfies Record<'valid' | 'risky' | 'invalid' | 'unknown' | 'unchecked', string>;

export const STATUSES: readonly string[] = Object.keys(STATUS_MEANINGS);

/** Every `email_reason` mailclean writes; typed so that a new reason cannot be added without its meaning. */
type Reason = Exclude<
  Extract<CellKey, { reason: string }>['reason'] | EngineReason | RecordReason | 'rejected_by_service' | 'no_result',
  ''
>;

/** What each `email_reason` means (`clean --help`, docs/json.md); a reason the service sends itself passes through. */
export const REASON_MEANINGS: Readonly<Record<Reason, string>> = {
  blank: 'the cell is empty (decided here, never sent)',
  syntax: 'not a well-formed address (decided here, never sent)',
  short_row: 'the row ends before the email column (decided here, never sent)',
  rejected_by_service: 'the service refused it as input (HTTP 422)',
  rejected: 'the service called it invalid without saying why',
  invalid_domain: 'the service says the domain takes no mail',
  no_result: 'the service twice answered without a record for it',
  no_domain: 'the built-in engine (--local, or the precheck): DNS says the domain does not exist',
  no_mx: 'the built-in engine: the domain has no mail host (MX, A or AAAA)',
  null_mx: 'the built-in engine: the domain refuses all mail (null MX)',
  reserved_domain: 'judged without DNS: a reserved TLD (.test, .invalid, ...)',
  mailbox_rejected: '--local --smtp: the mail server refused the mailbox',
  possible_typo: 'the built-in engine: a mistyped domain; see email_suggestion',
  disposable: 'a throwaway-address domain',
  catch_all: 'the mail server takes any mailbox (--local --smtp, or the service said)',
  role: 'a function (info@, no-reply@), not a person',
  dns_unavailable: '--local: DNS gave no answer',
  greylisted: '--local --smtp: the mail server said try later',
  smtp_unavailable: '--local --smtp: the mail server could not be asked',
};

export function meaningLines(meanings: Readonly<Record<string, string>>): string {
  const width = Math.max(...Object.keys(meanings).map((name) => name.length));
  return Object.entries(meanings)
    .map(([name, meaning]) => `  ${name.padEnd(width)}  ${meaning}`)
    .join('\n');
}

export const VERDICT_COLUMNS = [
  'email_status',
  'email_valid',
  'email_disposable',
  'email_valid_domain',
  'email_reason',
  'email_checked_at',
] as const;
/** What the address is, whoever checked it: a free-mail provider's (gmail.com), a function's (info@). */
export const KIND_COLUMNS = ['email_free', 'email_role'] as const;
export const RESULT_COLUMNS = [...VERDICT_COLUMNS, ...KIND_COLUMNS] as const;

/** email_free and email_role: the engine's own, else its lists asked about the key; null without an address. */
export function addressKind(v: Verdict, key: string = v.key): { free: boolean | null; role: boolean | null } {
  if (v.free !== undefined) return { free: v.free, role: v.role ?? null };
  const at = key.lastIndexOf('@');
  if (at <= 0) return { free: null, role: null };
  return { free: isFreeProvider(key.slice(at + 1)), role: isRoleAccount(key.slice(0, at)) };
}
/** What a row's own cells say besides its verdict (see CellKey); `original`: its email cell, where a fix replaced it. */
export interface RowFacts {
  checked?: string;
  key?: string;
  fixed?: string;
  original?: string;
}

/** Columns appended after the six, each only when it has something to say for this run. */
export const EXTRA_COLUMNS = {
  email_suggestion: (v: Verdict) => v.suggestion ?? null,
  email_provider: (v: Verdict) => v.provider ?? null,
  email_service_status: (v: Verdict) => v.serviceStatus ?? null,
  email_checked_by: (v: Verdict) =>
    v.decidedBy ?? (v.status === 'unchecked' || DECIDED_FROM_CELL.has(v.reason) ? null : 'service'),
  /** The address checked, where the cell held it inside something else (`Name <address>`, mailto:). */
  email_checked: (_v: Verdict, row: RowFacts) => row.checked ?? null,
  /** --fix-typos: the address the row was checked as, its mistyped domain corrected; its verdict is the row's. */
  email_fixed: (_v: Verdict, row: RowFacts) => row.fixed ?? null,
  /** --fix-typos=replace: the email cell as it was, where the fix now stands. */
  email_original: (_v: Verdict, row: RowFacts) => row.original ?? null,
} as const satisfies Record<string, (v: Verdict, row: RowFacts) => string | null>;

export type ExtraColumn = keyof typeof EXTRA_COLUMNS;

export const SERVICE_COLUMNS = ['email_service_status', 'email_checked_by'] as const satisfies readonly ExtraColumn[];

const DECIDED_FROM_CELL: ReadonlySet<string> = new Set(['blank', 'syntax', 'short_row']);

export function cellVerdict(key: string, reason: string): Verdict {
  return { key, status: 'invalid', valid: false, disposable: null, validDomain: null, reason, checkedAt: '' };
}

export function uncheckedVerdict(key: string): Verdict {
  return { key, status: 'unchecked', valid: null, disposable: null, validDomain: null, reason: '', checkedAt: '' };
}

export function verdictCells(v: Verdict, extras: readonly ExtraColumn[] = [], row: RowFacts = {}): string[] {
  return Object.values(verdictFields(v, extras, row)).map((value) => (value === null ? '' : String(value)));
}

export function verdictFields(
  v: Verdict,
  extras: readonly ExtraColumn[] = [],
  row: RowFacts = {},
): Record<string, string | boolean | null> {
  const fields: Record<string, string | boolean | null> = {
    email_status: v.status,
    email_valid: v.valid,
    email_disposable: v.disposable,
    email_valid_domain: v.validDomain,
    email_reason: v.reason || null,
    email_checked_at: v.checkedAt || null,
  };
  const kind = addressKind(v, row.key);
  fields.email_free = kind.free;
  fields.email_role = kind.role;
  for (const column of extras) fields[column] = EXTRA_COLUMNS[column](v, row);
  return fields;
}
