import { DomainResolver } from './dns.js';
import { type DnsOptions, type DnsStats, type DomainCheck, literalCheck, noDnsStats } from './dns-check.js';
import { type DomainFacts, FactsByBytes, factsOf, shareVerdict } from './domain-facts.js';
import { isRoleAccount, roleAccountByStart } from './lists.js';
import { type Provider, providerOf } from './provider.js';
import { type SmtpOptions, SmtpProber, type SmtpStats } from './smtp.js';
import { checkSyntax, hasNonAscii, splitKey } from './syntax.js';
import {
  type Base,
  baseVerdict,
  dnsVerdict,
  type EngineStatus,
  type EngineVerdict,
  localVerdict,
  passedVerdict,
  reservedVerdict,
  smtpVerdict,
  syntaxVerdict,
} from './verdicts.js';

export { ENGINE_REASONS, type EngineReason, type EngineStatus, type EngineVerdict } from './verdicts.js';

export interface EngineOptions {
  /** DNS checks (on by default). */
  dns?: DnsOptions & { enabled?: boolean };
  /** The SMTP probe (off by default; needs DNS). */
  smtp?: SmtpOptions & { enabled?: boolean };
  allowIpLiteral?: boolean;
  /** Each distinct warning once per engine (e.g. "DNS is unreachable (ECONNREFUSED): domain checks are unknown"). */
  onWarning?: (message: string) => void;
  /** Told each domain's mail provider (provider.ts) as its DNS answer comes in: '' when it names no mail host. */
  onProvider?: (domain: string, provider: Provider | '') => void;
}

export interface EngineStats {
  verified: number;
  byStatus: Record<EngineStatus, number>;
  dns: DnsStats;
  smtp: SmtpStats | undefined;
  warnings: string[];
}

/** 'key': `clean`'s key for an address its scan found well-formed (never an address literal), so only split here. */
export type AddressForm = 'as-given' | 'key';

const FACTS_LIMIT = 100_000;
/** `prefetch` asks nothing while this many lookups wait, so a long list does not queue every domain. */
const PREFETCH_QUEUE = 256;

/** The validation engine: syntax, lists, DNS and the SMTP probe, decided by the rules in verdicts.ts. */
export class Engine {
  private readonly allowIpLiteral: boolean;
  private readonly dns: DomainResolver | undefined;
  private readonly smtp: SmtpProber | undefined;
  private readonly facts = new Map<string, DomainFacts>();
  private readonly factsByBytes = new FactsByBytes();
  private readonly warned = new Set<string>();
  private readonly counts: Record<EngineStatus, number> = { valid: 0, invalid: 0, risky: 0, unknown: 0 };
  private readonly onWarning: ((message: string) => void) | undefined;
  private readonly onProvider: EngineOptions['onProvider'];
  private verified = 0;

  constructor(opts: EngineOptions = {}) {
    this.allowIpLiteral = opts.allowIpLiteral ?? false;
    this.onWarning = opts.onWarning;
    this.onProvider = opts.onProvider;
    const warn = (message: string) => this.warn(message);
    if (opts.dns?.enabled !== false) {
      const { enabled: _enabled, ...dnsOptions } = opts.dns ?? {};
      this.dns = new DomainResolver(dnsOptions, warn);
      if (opts.smtp?.enabled) {
        const { enabled: _smtpEnabled, ...smtpOptions } = opts.smtp;
        this.smtp = new SmtpProber(smtpOptions, warn);
      }
    } else if (opts.smtp?.enabled) {
      this.warn('the SMTP probe needs DNS: mailbox checks are skipped');
    }
  }

  verifyLocal(address: string): EngineVerdict {
    const syntax = checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok) return this.count(syntaxVerdict(syntax.reason));
    const facts = this.domainFacts(syntax.domain, syntax.ip !== undefined);
    return this.count(localVerdict(baseVerdict(syntax.local, syntax.smtputf8, facts), facts));
  }

  async verify(address: string, form: AddressForm = 'as-given'): Promise<EngineVerdict> {
    if (!this.dns) return this.verifyLocal(address);
    const parsed = this.parse(address, form);
    if ('status' in parsed) return parsed;
    if (parsed.facts.reserved) return this.count(reservedVerdict(parsed.base));
    // An address literal names its host: there is nothing to look up.
    const check = parsed.ip ? literalCheck(parsed.ip) : await this.dns.check(parsed.domain);
    if (!parsed.ip) this.learned(parsed.domain, parsed.facts, check);
    const decided = dnsVerdict(parsed.base, parsed.facts, check);
    if (decided) return this.count(decided);
    if (!this.smtp || check.status !== 'ok') return this.count(passedVerdict(parsed.base));
    return this.count(smtpVerdict(parsed.base, await this.probe(check, parsed)));
  }

  /** `verify`'s verdict when nothing is left to wait for (bad syntax, the domain's DNS answer in, no SMTP). */
  verifyKnown(address: string, form: AddressForm = 'as-given'): EngineVerdict | undefined {
    if (!this.dns) return this.verifyLocal(address);
    if (this.smtp) return undefined;
    if (form === 'key') return this.knownKey(address);
    const parsed = this.parse(address, form);
    if ('status' in parsed) return parsed;
    if (parsed.facts.reserved) return this.count(reservedVerdict(parsed.base));
    const check = parsed.ip ? literalCheck(parsed.ip) : parsed.facts.check;
    if (!check) return undefined;
    return this.count(dnsVerdict(parsed.base, parsed.facts, check) ?? passedVerdict(parsed.base));
  }

  prefetch(address: string): void {
    if (!this.dns || this.dns.queued >= PREFETCH_QUEUE) return;
    // Most addresses share a domain already asked about: found without parsing the address.
    const known = this.facts.get(address.slice(address.lastIndexOf('@') + 1));
    if (known?.prefetched || known?.check) return;
    const syntax = checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok || syntax.ip !== undefined) return;
    const facts = this.domainFacts(syntax.domain, false);
    if (facts.prefetched || facts.check || facts.reserved) return;
    facts.prefetched = true;
    this.dns.check(syntax.domain).then(
      (check) => this.learned(syntax.domain, facts, check),
      () => {},
    );
  }

  /** Asks DNS about a domain whose addresses are answered already, for its provider alone (told as ever). */
  async provider(domain: string): Promise<Provider | ''> {
    if (!this.dns || domain.startsWith('[')) return '';
    const facts = this.domainFacts(domain, false);
    if (facts.reserved) return '';
    const check = facts.check ?? (await this.dns.check(domain));
    this.learned(domain, facts, check);
    return providerOf(check);
  }

  private learned(domain: string, facts: DomainFacts, check: DomainCheck): void {
    if (facts.check) return;
    facts.check = check;
    this.onProvider?.(domain, providerOf(check));
  }

  /** verifyKnown for a key as UTF-8 (bytes[start, end)): most are decided by their bytes, without making a string. */
  knownKeyBytes(bytes: Buffer, start: number, end: number): EngineVerdict | undefined {
    if (this.dns && !this.smtp) {
      // The last @, and whether the local part before it is ASCII (else it needs SMTPUTF8: not kind 0).
      let at = -1;
      let ascii = true;
      let asciiSoFar = true;
      for (let i = start; i < end; i++) {
        const c = bytes[i] as number;
        if (c === 0x40 /* @ */) {
          at = i;
          ascii = asciiSoFar;
        } else if (c >= 0x80) asciiSoFar = false;
      }
      const person = ascii && at > start ? this.factsByBytes.get(bytes, at + 1, end)?.shared?.[0] : undefined;
      if (person && roleAccountByStart(bytes, start, at) === false) return this.count(person);
    }
    return this.verifyKnown(bytes.toString('utf8', start, end), 'key');
  }

  /** Once DNS has answered, a domain's addresses differ only in role and SMTPUTF8: they share one of four verdicts. */
  private knownKey(key: string): EngineVerdict | undefined {
    const at = key.lastIndexOf('@');
    const domain = key.slice(at + 1);
    const facts = this.domainFacts(domain, false);
    if (!facts.check && !facts.reserved) return undefined;
    const local = key.slice(0, at);
    const smtputf8 = hasNonAscii(local);
    const kind = facts.suggestion ? -1 : (isRoleAccount(local) ? 1 : 0) + (smtputf8 ? 2 : 0);
    const shared = kind >= 0 ? facts.shared?.[kind] : undefined;
    if (shared) return this.count(shared);
    const base = baseVerdict(local, smtputf8, facts);
    const verdict = this.count(
      facts.reserved ? reservedVerdict(base) : (dnsVerdict(base, facts, facts.check!) ?? passedVerdict(base)),
    );
    if (kind === 0) this.factsByBytes.add(domain, facts);
    return kind >= 0 ? shareVerdict(facts, kind, verdict) : verdict;
  }

  private parse(address: string, form: AddressForm): EngineVerdict | Parsed {
    const syntax = form === 'key' ? splitKey(address) : checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok) return this.count(syntaxVerdict(syntax.reason));
    const { local, domain, smtputf8, ip } = syntax;
    const facts = this.domainFacts(domain, ip !== undefined);
    return { local, domain, smtputf8, ip, facts, base: baseVerdict(local, smtputf8, facts) };
  }

  dnsSkipped(): string | undefined {
    return this.dns ? this.dns.unreachableBecause : 'disabled';
  }

  stats(): EngineStats {
    return {
      verified: this.verified,
      byStatus: { ...this.counts },
      dns: this.dns?.stats() ?? noDnsStats(),
      smtp: this.smtp?.stats(),
      warnings: [...this.warned],
    };
  }

  async close(): Promise<void> {
    this.smtp?.close();
    this.dns?.cancel();
  }

  private async probe(check: Extract<DomainCheck, { status: 'ok' }>, { local, domain, smtputf8 }: Parsed) {
    const best = check.hosts[0]!;
    const addresses = check.implicit?.addresses ?? (await this.dns!.addresses(best.exchange));
    return this.smtp!.probe({ local, domain, smtputf8, host: best.exchange, addresses });
  }

  private domainFacts(domain: string, literal: boolean): DomainFacts {
    let facts = this.facts.get(domain);
    if (!facts) {
      if (this.facts.size >= FACTS_LIMIT) {
        this.facts.clear();
        this.factsByBytes.clear();
      }
      facts = factsOf(domain, literal);
      this.facts.set(domain, facts);
    }
    return facts;
  }

  private count(verdict: EngineVerdict): EngineVerdict {
    this.verified++;
    this.counts[verdict.status]++;
    return verdict;
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.onWarning?.(message);
  }
}

type Parsed = { local: string; domain: string; smtputf8: boolean; ip?: string; facts: DomainFacts; base: Base };
