// What a domain's lookup says, the resolver's options and counters, and the warnings a failed lookup gives.

export interface DnsOptions {
  servers?: string[];
  /** How long each try of a query is waited for, in milliseconds. Default: learned from the answers' times. */
  timeoutMs?: number;
  /** Tries of a query that gets no answer. Default 2. */
  tries?: number;
  /** Domains looked up at once. Default: learned from the resolver's answers, up to MAX_IN_FLIGHT. */
  concurrency?: number;
  /** After this many domains in a row got no answer, the rest are `dns_unavailable` without asking. Default 5. */
  unreachableAfter?: number;
  /** A name that must exist (default `com`): a resolver cut off that denies everything makes checks unknown. */
  canary?: string | false;
  /** Believe "no such domain" only when asked twice: for the precheck, whose answer nobody checks after. */
  confirmNoDomain?: boolean;
}

export interface MailHost {
  exchange: string;
  priority: number;
}

export type DomainCheck =
  | {
      status: 'ok';
      hosts: MailHost[];
      /** No MX: the domain itself is the mail host (RFC 5321 section 5.1), with these addresses. */
      implicit?: { addresses: string[] };
    }
  | { status: 'invalid'; reason: 'no_domain' | 'no_mx' | 'null_mx' }
  | { status: 'unknown'; reason: 'dns_unavailable'; code: string };

export interface DnsStats {
  lookups: number;
  queries: number;
  hostQueries: number;
  canaryQueries: number;
  cacheHits: number;
  unavailable: number;
  skipped: number;
}

export function literalCheck(ip: string): DomainCheck {
  return { status: 'ok', hosts: [{ exchange: ip, priority: 0 }], implicit: { addresses: [ip] } };
}

export function noDnsStats(): DnsStats {
  return { lookups: 0, queries: 0, hostQueries: 0, canaryQueries: 0, cacheHits: 0, unavailable: 0, skipped: 0 };
}

/** Errors that say nothing about the domain, only that no answer came. */
export const NO_ANSWER = new Set(['ECONNREFUSED', 'ETIMEOUT', 'ECONNRESET', 'ECANCELLED', 'EDESTRUCTION']);

export function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/** `answering`: the resolver has answered other questions, so a query without an answer is that domain's. */
export function dnsWarning(code: string, answering: boolean): string {
  if (!NO_ANSWER.has(code)) return `DNS lookups failed (${code}): those domain checks are unknown`;
  return answering
    ? `DNS gave no answer for some domains (${code}): those domain checks are unknown`
    : `DNS is unreachable (${code}): domain checks are unknown`;
}

export function canaryWarning(name: string, code: string): string {
  return `DNS is unreachable (the resolver says ${name} does not exist: ${code}): domain checks are unknown`;
}
