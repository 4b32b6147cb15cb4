import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { DnsPace, TIMED_OUT } from './dns-pace.js';

export type { DnsOptions, DnsStats, DomainCheck } from './dns-check.js';

const CANARY_TIMEOUT_MS = 1_000;
/** c-ares's own timeout before it has learned the server's answer times; DnsPace.race decides when a try ends. */
const CARES_TIMEOUT_MS = 3_000;
/** A query refused or failed (REFUSED, SERVFAIL) is asked this many times, after waits from BACKOFF_MS doubling. */
const REFUSED_TRIES = 4;
const BACKOFF_MS = 200;
/** What a busy or rate-limiting resolver answers: asked again later, not taken as the domain's answer at once. */
const BUSY = new Set(['EREFUSED', 'ESERVFAIL']);

type Answer<T> = { ok: true; value: T } | { ok: false; code: string };

/** MX lookups with the RFC 5321 A/AAAA fallback, each domain asked once; never invalid for want of an answer. */
export class DomainResolver {
  private readonly resolver: Resolver;
  private readonly canaryResolver: Resolver;
  private readonly pace: DnsPace;
  private readonly tries: number;
  private readonly cache = new Map<string, Promise<DomainCheck>>();
  private readonly hosts = new Map<string, Promise<string[]>>();
  private readonly unreachableAfter: number;
  private failuresInARow = 0;
  /** When the resolver last answered anything: a domain asked before that says nothing about whether it answers. */
  private lastAnswerAt = -Infinity;
  private unreachable: string | undefined;
  private readonly stopped = new AbortController();
  private unreachableWarning: string | undefined;
  private readonly canaryName: string | false;
  private readonly confirmNoDomain: boolean;
  private canary: Promise<string | undefined> | undefined;
  private readonly counters: DnsStats = noDnsStats();

  private readonly warn: (message: string) => void;

  constructor(opts: DnsOptions = {}, warn: (message: string) => void = () => {}) {
    this.warn = (message) => {
      if (!this.stopped.signal.aborted) warn(message);
    };
    this.resolver = new Resolver({ timeout: CARES_TIMEOUT_MS, tries: 1 });
    this.canaryResolver = new Resolver({ timeout: Math.min(opts.timeoutMs ?? 3000, CANARY_TIMEOUT_MS), tries: 2 });
    if (opts.servers && opts.servers.length > 0) {
      this.resolver.setServers(opts.servers);
      this.canaryResolver.setServers(opts.servers);
    }
    this.pace = new DnsPace(opts.concurrency, opts.timeoutMs);
    this.tries = Math.max(1, opts.tries ?? 2);
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
    const pending = this.pace.limit(() => this.lookup(key));
    this.cache.set(key, pending);
    return pending;
  }

  get queued(): number {
    return this.pace.limit.pendingCount;
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
    this.stopped.abort();
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
    const asked = performance.now();
    const check = await this.mailHosts(domain);
    if (check.status === 'unknown') this.noAnswer(check.code, asked);
    return check;
  }

  private async mailHosts(domain: string): Promise<DomainCheck> {
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
    if (!this.canary) {
      this.counters.canaryQueries++;
      this.canary = this.canaryResolver.resolveNs(name).then(
        (found) => (found.length > 0 ? undefined : 'ENODATA'),
        (err: unknown) => codeOf(err),
      );
    }
    return this.canary;
  }

  /**
   * One question, asked again when no answer comes in time (up to `tries` times) and, after a wait, when the resolver
   * refuses or fails it: a busy resolver is asked less and later, rather than its domains called unknown.
   */
  private async ask<T>(query: () => Promise<T>, counter: 'queries' | 'hostQueries' = 'queries'): Promise<Answer<T>> {
    for (let timeouts = 0, refusals = 0; ; ) {
      if (this.stopped.signal.aborted) return { ok: false, code: 'ECANCELLED' };
      const sent = performance.now();
      try {
        const value = await this.pace.race(() => {
          this.counters[counter]++;
          return query();
        });
        this.heard(sent);
        return { ok: true, value };
      } catch (err) {
        const code = codeOf(err);
        if (!NO_ANSWER.has(code)) this.heard(sent, BUSY.has(code));
        if (code === TIMED_OUT) this.pace.missed();
        const retry = code === TIMED_OUT ? ++timeouts < this.tries : BUSY.has(code) && ++refusals < REFUSED_TRIES;
        if (!retry) return { ok: false, code };
        if (BUSY.has(code)) await this.backoff(refusals);
      }
    }
  }

  /** The resolver answered: refused or failed (`busy`), it is overloaded and asked less. */
  private heard(sent: number, busy = false): void {
    const now = performance.now();
    this.lastAnswerAt = now;
    this.failuresInARow = 0;
    if (busy) this.pace.missed();
    else this.pace.answered(now - sent);
  }

  /** The wait before a refused or failed query is asked again; a stop ends it. */
  private backoff(refusals: number): Promise<unknown> {
    const ms = BACKOFF_MS * 2 ** (refusals - 1) * (0.5 + Math.random());
    return sleep(ms, undefined, { signal: this.stopped.signal }).catch(() => undefined);
  }

  /** Domains asked after the resolver's last answer that got none: so many in a row and the rest are not asked. */
  private noAnswer(code: string, asked: number): void {
    if (!NO_ANSWER.has(code) || code === 'ECANCELLED' || code === 'EDESTRUCTION' || asked < this.lastAnswerAt) return;
    if (++this.failuresInARow >= this.unreachableAfter) this.unreachable ??= code;
  }

  private unavailable(code: string, skipped = false): DomainCheck {
    this.counters.unavailable++;
    if (skipped) this.counters.skipped++;
    const answering = this.lastAnswerAt > -Infinity && !this.unreachable;
    this.warn(skipped && this.unreachableWarning ? this.unreachableWarning : dnsWarning(code, answering));
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
