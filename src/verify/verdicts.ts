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
  /** '' for valid. */
  reason: EngineReason;
  /** Spec 2.10 `valid`: true only for `valid`, false for `invalid` and `risky`, null for `unknown`. */
  valid: boolean | null;
  /** Spec 2.10 `isDisposable`. */
  isDisposable: boolean;
  /** Spec 2.10 `isValidDomain`: whether the domain can receive mail; null when DNS was not asked or did not answer. */
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

/*
 * The rules, the first that applies winning:
 * 1. bad syntax -> invalid `syntax`
 * 2. a reserved TLD such as `.test` -> invalid `reserved_domain`, never looked up (RFC 6761: no such name exists)
 * 3. DNS says the domain takes no mail -> invalid `no_domain` / `null_mx` / `no_mx`
 * 4. the domain is a typo of a common provider -> risky `possible_typo` (never `disposable`)
 * 5. a disposable domain -> risky `disposable`
 * 6. DNS did not answer -> unknown `dns_unavailable`
 * 7. SMTP rejected the mailbox (5xx on RCPT) -> invalid `mailbox_rejected`
 * 8. SMTP gave no answer -> unknown `greylisted` (4xx on RCPT) / `smtp_unavailable`
 * 9. SMTP accepted a made-up mailbox too -> risky `catch_all`
 * 10. a role account -> risky `role`
 * 11. otherwise valid.
 */

type Facts = { reserved: boolean; suggestion: string | undefined; disposable: boolean };

/** Steps 2, 4, 5, 10 and 11 without DNS. */
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

/** Steps 3-6; undefined when the mailbox is next. */
export function dnsVerdict(base: Base, facts: Facts, check: DomainCheck): EngineVerdict | undefined {
  if (check.status === 'invalid') return decide(base, 'invalid', check.reason, false);
  const answered = check.status === 'ok' ? true : null;
  if (facts.suggestion) return decide(base, 'risky', 'possible_typo', answered);
  if (facts.disposable) return decide(base, 'risky', 'disposable', answered);
  if (check.status === 'unknown') return { ...decide(base, 'unknown', 'dns_unavailable', null), detail: check.code };
  return undefined;
}

/** Steps 7-11. */
export function smtpVerdict(base: Base, outcome: SmtpOutcome): EngineVerdict {
  if (outcome.status === 'rejected') {
    const detail = `${outcome.reply.code} ${outcome.reply.text}`.slice(0, 200);
    return { ...decide(base, 'invalid', 'mailbox_rejected', true), detail };
  }
  if (outcome.status === 'unknown') return { ...decide(base, 'unknown', outcome.reason, true), detail: outcome.detail };
  if (outcome.status === 'accepted' && outcome.catchAll) return decide(base, 'risky', 'catch_all', true);
  return passedVerdict(base);
}

/** Every check passed: valid, or risky for a role address. */
export function passedVerdict(base: Base): EngineVerdict {
  return decide(base, base.role ? 'risky' : 'valid', base.role ? 'role' : '', true);
}

/** Verdicts given to many addresses (see Engine.knownKey), one frozen object for each. */
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
