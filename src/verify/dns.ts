import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import pLimit, { type LimitFunction } from 'p-limit';

export interface DnsOptions {
  /** Resolver addresses (`'127.0.0.1:5353'`, `'[::1]:53'`); the system's when absent. */
  servers?: string[];
  /** Per-query timeout before a retry, in milliseconds (c-ares doubles it on each retry). Default 3000. */
  timeoutMs?: number;
  /** Attempts per query. Default 2. */
  tries?: number;
  /** Domains looked up at once. Default 16. */
  concurrency?: number;
  /**
   * After this many domains in a row failed for want of an answer (refused connection, timeout) with no
   * answer in between, DNS is taken as unreachable: the remaining domains are `dns_unavailable` without
   * asking. Default 5.
   */
  unreachableAfter?: number;
  /**
   * A name that must exist (default `com`). Before the first "no such domain" or "no mail host" answer is
   * believed, the resolver must answer NS for it: a resolver cut off from the Internet that denies
   * everything (as sandboxes do) makes every check unknown instead of invalid. `false` trusts every answer.
   */
  canary?: string | false;
  /**
   * Believe "no such domain" only when a second query says it again (else the domain is unknown): for a caller
   * that acts on the answer without anyone checking it after (the precheck, which then sends nothing).
   */
  confirmNoDomain?: boolean;
}

export interface MailHost {
  exchange: string;
  priority: number;
}

export type DomainCheck =
  | {
      status: 'ok';
      /** Mail hosts, best (lowest preference) first. */
      hosts: MailHost[];
      /** No MX: the domain itself is the mail host (RFC 5321 section 5.1), with these addresses. */
      implicit?: { addresses: string[] };
    }
  | { status: 'invalid'; reason: 'no_domain' | 'no_mx' | 'null_mx' }
  | { status: 'unknown'; reason: 'dns_unavailable'; code: string };

export interface DnsStats {
  /** Domains looked up: one per distinct domain, however many questions that took. */
  lookups: number;
  /** Questions sent for those domains (MX, then A and AAAA when there is no MX). */
  queries: number;
  /** Questions sent for mail host addresses (for the SMTP probe). */
  hostQueries: number;
  /** Questions sent to check that the resolver sees the Internet (the canary; at most one). */
  canaryQueries: number;
  /** `verify` calls answered from the cache of an earlier or running lookup. */
  cacheHits: number;
  /** Domains whose lookup ended `dns_unavailable` (including those not asked once DNS was unreachable). */
  unavailable: number;
  /** Domains not asked because DNS was already known to be unreachable. */
  skipped: number;
}

/** What an address literal (`user@[192.0.2.1]`) says of its domain: its host, nothing to look up. */
export function literalCheck(ip: string): DomainCheck {
  return { status: 'ok', hosts: [{ exchange: ip, priority: 0 }], implicit: { addresses: [ip] } };
}

/** The stats of an engine that asks no DNS. */
export function noDnsStats(): DnsStats {
  return { lookups: 0, queries: 0, hostQueries: 0, canaryQueries: 0, cacheHits: 0, unavailable: 0, skipped: 0 };
}

/** The canary's first try waits this long (c-ares doubles it for the second): 3 s in all on a network that drops. */
const CANARY_TIMEOUT_MS = 1_000;

/** Errors that say nothing about the domain, only that no answer came. */
const NO_ANSWER = new Set(['ECONNREFUSED', 'ETIMEOUT', 'ECONNRESET', 'ECANCELLED', 'EDESTRUCTION']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/** The warning for a failed lookup; the same text for every domain that fails the same way. */
export function dnsWarning(code: string): string {
  return NO_ANSWER.has(code)
    ? `DNS is unreachable (${code}): domain checks are unknown`
    : `DNS lookups failed (${code}): those domain checks are unknown`;
}

export function canaryWarning(name: string, code: string): string {
  return `DNS is unreachable (the resolver says ${name} does not exist: ${code}): domain checks are unknown`;
}

/**
 * MX lookups with the RFC 5321 A/AAAA fallback, each domain asked once per instance (a cache of
 * promises), at most `concurrency` domains at once. Never calls a domain invalid for a failure to get
 * an answer.
 */
export class DomainResolver {
  private readonly resolver: Resolver;
  private readonly canaryResolver: Resolver;
  private readonly limit: LimitFunction;
  private readonly cache = new Map<string, Promise<DomainCheck>>();
  private readonly hosts = new Map<string, Promise<string[]>>();
  private readonly unreachableAfter: number;
  private failuresInARow = 0;
  private unreachable: string | undefined;
  private cancelled = false;
  /** What the user is told once DNS is taken as unreachable (by the canary, or by failures in a row). */
  private unreachableWarning: string | undefined;
  private readonly canaryName: string | false;
  private readonly confirmNoDomain: boolean;
  private canary: Promise<string | undefined> | undefined;
  private readonly counters: DnsStats = {
    lookups: 0,
    queries: 0,
    hostQueries: 0,
    canaryQueries: 0,
    cacheHits: 0,
    unavailable: 0,
    skipped: 0,
  };

  private readonly warn: (message: string) => void;

  constructor(opts: DnsOptions = {}, warn: (message: string) => void = () => {}) {
    this.warn = (message) => {
      if (!this.cancelled) warn(message);
    };
    this.resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: opts.tries ?? 2 });
    this.canaryResolver = new Resolver({ timeout: Math.min(opts.timeoutMs ?? 3000, CANARY_TIMEOUT_MS), tries: 2 });
    if (opts.servers && opts.servers.length > 0) {
      this.resolver.setServers(opts.servers);
      this.canaryResolver.setServers(opts.servers);
    }
    this.limit = pLimit(opts.concurrency ?? 16);
    this.unreachableAfter = opts.unreachableAfter ?? 5;
    this.canaryName = opts.canary ?? 'com';
    this.confirmNoDomain = opts.confirmNoDomain ?? false;
  }

  /** Why the domains checked so far after some point were not asked (DNS found unreachable); asks nothing itself. */
  get unreachableBecause(): string | undefined {
    return this.unreachable;
  }

  /** The mail hosts of an ASCII domain, or why there are none. */
  check(domain: string): Promise<DomainCheck> {
    const key = domain.toLowerCase();
    const cached = this.cache.get(key);
    if (cached) {
      this.counters.cacheHits++;
      return cached;
    }
    const pending = this.limit(() => this.lookup(key));
    this.cache.set(key, pending);
    return pending;
  }

  /** Lookups waiting for one of the concurrent slots. */
  get queued(): number {
    return this.limit.pendingCount;
  }

  /** IPv4 then IPv6 addresses of a mail host (itself when it is an IP address); [] when none or unknown. */
  addresses(host: string): Promise<string[]> {
    if (isIP(host)) return Promise.resolve([host]);
    const key = host.toLowerCase();
    let pending = this.hosts.get(key);
    if (!pending) {
      pending = this.hostAddresses(key);
      this.hosts.set(key, pending);
    }
    return pending;
  }

  stats(): DnsStats {
    return { ...this.counters };
  }

  /** Abandons queries in flight (they end `ECANCELLED`, unremarked: the run is stopping). */
  cancel(): void {
    this.cancelled = true;
    this.resolver.cancel();
    this.canaryResolver.cancel();
  }

  private async lookup(domain: string): Promise<DomainCheck> {
    // The canary first: a resolver that cannot see the Internet (offline, a sandbox denying every name) is found
    // out with one question instead of one per domain, and no domain is asked after it.
    const cut = await this.checkCanary();
    if (cut !== undefined && this.unreachable === undefined) {
      this.unreachable = cut;
      this.unreachableWarning = canaryWarning(this.canaryName as string, cut);
    }
    if (this.unreachable) return this.unavailable(this.unreachable, true);
    this.counters.lookups++;
    try {
      const mx = await this.ask(() => this.resolver.resolveMx(domain));
      if (mx.ok) {
        const isNull = (r: { exchange: string }) => r.exchange === '' || r.exchange === '.';
        // RFC 7505: a single MX of "." says the domain accepts no mail.
        const real = mx.value.filter((r) => !isNull(r));
        if (real.length === 0) return { status: 'invalid', reason: 'null_mx' };
        real.sort((a, b) => a.priority - b.priority);
        return {
          status: 'ok',
          hosts: real.map((r) => ({ exchange: r.exchange.replace(/\.$/, ''), priority: r.priority })),
        };
      }
      if (mx.code === 'ENOTFOUND') return await this.noDomain(domain);
      if (mx.code !== 'ENODATA') return this.unavailable(mx.code);

      // No MX: the domain's own address records make it its mail host (RFC 5321 section 5.1).
      const a = await this.ask(() => this.resolver.resolve4(domain));
      if (a.ok && a.value.length > 0)
        return { status: 'ok', hosts: [{ exchange: domain, priority: 0 }], implicit: { addresses: a.value } };
      if (!a.ok && a.code === 'ENOTFOUND') return { status: 'invalid', reason: 'no_domain' };
      if (!a.ok && a.code !== 'ENODATA') return this.unavailable(a.code);
      const aaaa = await this.ask(() => this.resolver.resolve6(domain));
      if (aaaa.ok && aaaa.value.length > 0)
        return { status: 'ok', hosts: [{ exchange: domain, priority: 0 }], implicit: { addresses: aaaa.value } };
      if (!aaaa.ok && aaaa.code === 'ENOTFOUND') return { status: 'invalid', reason: 'no_domain' };
      if (!aaaa.ok && aaaa.code !== 'ENODATA') return this.unavailable(aaaa.code);
      return { status: 'invalid', reason: 'no_mx' };
    } catch (err) {
      return this.unavailable(codeOf(err));
    }
  }

  /** "No such domain", said twice when it must be (a resolver's passing failure would cost a row its verdict). */
  private async noDomain(domain: string): Promise<DomainCheck> {
    if (!this.confirmNoDomain) return { status: 'invalid', reason: 'no_domain' };
    const again = await this.ask(() => this.resolver.resolveMx(domain));
    if (!again.ok && again.code === 'ENOTFOUND') return { status: 'invalid', reason: 'no_domain' };
    return this.unavailable(again.ok ? 'EINCONSISTENT' : again.code);
  }

  /**
   * Once per resolver: undefined when the canary name resolves, else the error code. Asked with a short timeout
   * of its own: on a network that drops packets, it bounds the wait before every domain is called unknown.
   */
  private checkCanary(): Promise<string | undefined> {
    const name = this.canaryName;
    if (name === false) return Promise.resolve(undefined);
    this.canary ??= this.ask(() => this.canaryResolver.resolveNs(name), 'canaryQueries').then((r) =>
      r.ok ? (r.value.length > 0 ? undefined : 'ENODATA') : r.code,
    );
    return this.canary;
  }

  private async ask<T>(
    query: () => Promise<T>,
    counter: 'queries' | 'hostQueries' | 'canaryQueries' = 'queries',
  ): Promise<{ ok: true; value: T } | { ok: false; code: string }> {
    this.counters[counter]++;
    try {
      const value = await query();
      this.failuresInARow = 0;
      return { ok: true, value };
    } catch (err) {
      const code = codeOf(err);
      if (NO_ANSWER.has(code)) {
        if (code !== 'ECANCELLED' && code !== 'EDESTRUCTION' && ++this.failuresInARow >= this.unreachableAfter) {
          this.unreachable ??= code;
        }
      } else {
        // NXDOMAIN, NODATA, SERVFAIL...: the server answered.
        this.failuresInARow = 0;
      }
      return { ok: false, code };
    }
  }

  private unavailable(code: string, skipped = false): DomainCheck {
    this.counters.unavailable++;
    if (skipped) this.counters.skipped++;
    this.warn(skipped && this.unreachableWarning ? this.unreachableWarning : dnsWarning(code));
    return { status: 'unknown', reason: 'dns_unavailable', code };
  }

  private async hostAddresses(host: string): Promise<string[]> {
    if (this.unreachable) return [];
    const a = await this.ask(() => this.resolver.resolve4(host), 'hostQueries');
    if (a.ok && a.value.length > 0) return a.value;
    const aaaa = await this.ask(() => this.resolver.resolve6(host), 'hostQueries');
    return aaaa.ok ? aaaa.value : [];
  }
}
