// What the engine answers: its statuses and reasons, the verdict, and how one is made from what was found.
import { isRoleAccount } from './lists.js';
import type { SyntaxReason } from './syntax.js';

export type EngineStatus = 'valid' | 'invalid' | 'risky' | 'unknown';

/** Every reason the engine gives ('' for valid); `clean --help` and docs/json.md explain each. */
export const ENGINE_REASONS = [
  '',
  'syntax',
  'reserved_domain',
  'no_domain',
  'no_mx',
  'null_mx',
  'mailbox_rejected',
  'possible_typo',
  'disposable',
  'catch_all',
  'role',
  'dns_unavailable',
  'smtp_unavailable',
  'greylisted',
] as const;

export type EngineReason = (typeof ENGINE_REASONS)[number];

export interface EngineVerdict {
  status: EngineStatus;
  /** '' for valid. */
  reason: EngineReason;
  /** Spec 2.10 `valid`: true only for `valid`, false for `invalid` and `risky`, null for `unknown`. */
  valid: boolean | null;
  /** Spec 2.10 `isDisposable`. */
  isDisposable: boolean;
  /**
   * Spec 2.10 `isValidDomain`: whether the domain can receive mail; null when DNS was not consulted or did not answer.
   */
  isValidDomain: boolean | null;
  role: boolean;
  freeProvider: boolean;
  smtputf8: boolean;
  /** A likely intended address when the domain looks mistyped (`ann@gmial.com` -> `ann@gmail.com`). */
  suggestion?: string;
  /** More about the reason: the syntax rule broken, the DNS error code, the SMTP reply. */
  detail?: string;
}

const DOMAIN_REASONS: ReadonlySet<SyntaxReason> = new Set<SyntaxReason>([
  'domain_empty',
  'domain_too_long',
  'domain_invalid',
  'label_invalid',
  'label_too_long',
  'tld_invalid',
  'tld_missing',
]);

/** What every verdict of an address carries, whatever decides it. */
export interface Base {
  role: boolean;
  freeProvider: boolean;
  isDisposable: boolean;
  smtputf8: boolean;
  suggestion?: string;
}

export function baseVerdict(
  local: string,
  smtputf8: boolean,
  facts: { free: boolean; disposable: boolean; suggestion: string | undefined },
): Base {
  const base: Base = { role: isRoleAccount(local), freeProvider: facts.free, isDisposable: facts.disposable, smtputf8 };
  if (facts.suggestion) base.suggestion = `${local}@${facts.suggestion}`;
  return base;
}

export function decide(
  base: Base,
  status: EngineStatus,
  reason: EngineReason,
  isValidDomain: boolean | null,
): EngineVerdict {
  const valid = status === 'valid' ? true : status === 'unknown' ? null : false;
  const verdict: EngineVerdict = {
    status,
    reason,
    valid,
    isDisposable: base.isDisposable,
    isValidDomain,
    role: base.role,
    freeProvider: base.freeProvider,
    smtputf8: base.smtputf8,
  };
  if (base.suggestion) verdict.suggestion = base.suggestion;
  return verdict;
}

export function syntaxVerdict(reason: SyntaxReason): EngineVerdict {
  return {
    status: 'invalid',
    reason: 'syntax',
    valid: false,
    isDisposable: false,
    // The domain part alone is malformed: it can be called invalid without asking DNS.
    isValidDomain: DOMAIN_REASONS.has(reason) ? false : null,
    role: false,
    freeProvider: false,
    smtputf8: false,
    detail: reason,
  };
}

/** Verdicts given to many addresses (see Engine.knownKey), one frozen object for each: a few, however many domains. */
const SHARED = new Map<string, EngineVerdict>();

/** The one frozen verdict that reads as `verdict` does: its users can tell it from the others by identity. */
export function sharedVerdict(verdict: EngineVerdict): EngineVerdict {
  const { status, reason, valid, isDisposable, isValidDomain, role, freeProvider, smtputf8, suggestion, detail } =
    verdict;
  const text = [status, reason, valid, isDisposable, isValidDomain, role, freeProvider, smtputf8, suggestion, detail];
  const key = text.join(' ');
  let shared = SHARED.get(key);
  if (!shared) SHARED.set(key, (shared = Object.freeze(verdict)));
  return shared;
}
