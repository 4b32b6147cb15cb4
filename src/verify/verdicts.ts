// What the engine answers: its statuses and reasons, the verdict, and the rules that make one from what was found.
import type { DomainCheck } from './dns-check.js';
import { isRoleAccount } from './lists.js';
import type { SmtpOutcome } from './smtp.js';
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
  reason: EngineReason;
  /** Spec 2.10 `valid`: true only for `valid`, false for `invalid` and `risky`, null for `unknown`. */
  valid: boolean | null;
  isDisposable: boolean;
  /** Spec 2.10 `isValidDomain`: whether the domain can receive mail; null when DNS was not asked or did not answer. */
  isValidDomain: boolean | null;
  role: boolean;
  freeProvider: boolean;
  smtputf8: boolean;
  suggestion?: string;
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

function decide(base: Base, status: EngineStatus, reason: EngineReason, isValidDomain: boolean | null): EngineVerdict {
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

const NO_ADDRESS: Base = { role: false, freeProvider: false, isDisposable: false, smtputf8: false };

export function syntaxVerdict(reason: SyntaxReason): EngineVerdict {
  // A malformed domain part can be called invalid without asking DNS.
  return { ...decide(NO_ADDRESS, 'invalid', 'syntax', DOMAIN_REASONS.has(reason) ? false : null), detail: reason };
}

// The rules, the first that applies winning, are listed in docs/verify.md; the functions below apply them in order.

type Facts = { reserved: boolean; suggestion: string | undefined; disposable: boolean };

export function localVerdict(base: Base, facts: Facts): EngineVerdict {
  if (facts.reserved) return reservedVerdict(base);
  if (facts.suggestion) return decide(base, 'risky', 'possible_typo', null);
  if (facts.disposable) return decide(base, 'risky', 'disposable', null);
  if (base.role) return decide(base, 'risky', 'role', null);
  return decide(base, 'valid', '', null);
}

export function reservedVerdict(base: Base): EngineVerdict {
  return decide(base, 'invalid', 'reserved_domain', false);
}

export function dnsVerdict(base: Base, facts: Facts, check: DomainCheck): EngineVerdict | undefined {
  if (check.status === 'invalid') return decide(base, 'invalid', check.reason, false);
  const answered = check.status === 'ok' ? true : null;
  if (facts.suggestion) return decide(base, 'risky', 'possible_typo', answered);
  if (facts.disposable) return decide(base, 'risky', 'disposable', answered);
  if (check.status === 'unknown') return { ...decide(base, 'unknown', 'dns_unavailable', null), detail: check.code };
  return undefined;
}

export function smtpVerdict(base: Base, outcome: SmtpOutcome): EngineVerdict {
  if (outcome.status === 'rejected') {
    const detail = `${outcome.reply.code} ${outcome.reply.text}`.slice(0, 200);
    return { ...decide(base, 'invalid', 'mailbox_rejected', true), detail };
  }
  if (outcome.status === 'unknown') return { ...decide(base, 'unknown', outcome.reason, true), detail: outcome.detail };
  if (outcome.status === 'accepted' && outcome.catchAll) return decide(base, 'risky', 'catch_all', true);
  return passedVerdict(base);
}

export function passedVerdict(base: Base): EngineVerdict {
  return decide(base, base.role ? 'risky' : 'valid', base.role ? 'role' : '', true);
}

const SHARED = new Map<string, EngineVerdict>();

/** The one frozen verdict that reads as `verdict` does, so its users can tell verdicts apart by identity. */
export function sharedVerdict(verdict: EngineVerdict): EngineVerdict {
  const { status, reason, valid, isDisposable, isValidDomain, role, freeProvider, smtputf8, suggestion, detail } =
    verdict;
  const text = [status, reason, valid, isDisposable, isValidDomain, role, freeProvider, smtputf8, suggestion, detail];
  const key = text.join(' ');
  let shared = SHARED.get(key);
  if (!shared) SHARED.set(key, (shared = Object.freeze(verdict)));
  return shared;
}
