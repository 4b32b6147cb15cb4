import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import pLimit, { type LimitFunction } from 'p-limit';
import {
  canaryWarning,
  codeOf,
  type DnsOptions,
  type DnsStats,
  type DomainCheck,
  dnsWarning,
  NO_ANSWER,
  noDnsStats,
} from './dns-check.js';

export type { DnsOptions, DnsStats, DomainCheck } from './dns-check.js';

const CANARY_TIMEOUT_MS = 1_000;

/** MX lookups with the RFC 5321 A/AAAA fallback, each domain asked once; never invalid for want of an answer. */
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
  private unreachableWarning: string | undefined;
  private readonly canaryName: string | false;
  private readonly confirmNoDomain: boolean;
  private canary: Promise<string | undefined> | undefined;
  private readonly counters: DnsStats = noDnsStats();

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

  get unreachableBecause(): string | undefined {
    return this.unreachable;
  }

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

  get queued(): number {
    return this.limit.pendingCount;
  }

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
    // The canary first: a resolver that cannot see the Internet is found out with one question, not one a domain.
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
      for (const family of ['resolve4', 'resolve6'] as const) {
        const found = await this.ask(() => this.resolver[family](domain));
        if (found.ok && found.value.length > 0)
          return { status: 'ok', hosts: [{ exchange: domain, priority: 0 }], implicit: { addresses: found.value } };
        if (!found.ok && found.code === 'ENOTFOUND') return { status: 'invalid', reason: 'no_domain' };
        if (!found.ok && found.code !== 'ENODATA') return this.unavailable(found.code);
      }
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
