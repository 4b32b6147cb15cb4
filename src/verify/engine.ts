import { type DnsOptions, type DnsStats, type DomainCheck, DomainResolver, literalCheck, noDnsStats } from './dns.js';
import { type DomainFacts, FactsByBytes, factsOf, shareVerdict } from './domain-facts.js';
import { isRoleAccount, roleAccountByStart } from './lists.js';
import { type SmtpOptions, type SmtpOutcome, SmtpProber, type SmtpStats } from './smtp.js';
import { checkSyntax, hasNonAscii, splitKey } from './syntax.js';
import { type Base, baseVerdict, decide, type EngineStatus, type EngineVerdict, syntaxVerdict } from './verdicts.js';

export { ENGINE_REASONS, type EngineReason, type EngineStatus, type EngineVerdict } from './verdicts.js';

export interface EngineOptions {
  /** DNS checks (on by default). */
  dns?: DnsOptions & { enabled?: boolean };
  /** The SMTP probe (off by default; needs DNS). */
  smtp?: SmtpOptions & { enabled?: boolean };
  allowIpLiteral?: boolean;
  /** Each distinct warning once per engine (e.g. "DNS is unreachable (ECONNREFUSED): domain checks are unknown"). */
  onWarning?: (message: string) => void;
}

export interface EngineStats {
  verified: number;
  byStatus: Record<EngineStatus, number>;
  dns: DnsStats;
  smtp: SmtpStats | undefined;
  warnings: string[];
}

/**
 * How an address given to `verify` is written. 'as-given': as a user wrote it, checked here. 'key': `clean`'s key
 * for an address its scan found well-formed (checkSyntax's local part and domain, see dedupeKey): its syntax was
 * decided once, in the scan, and it is only split here. Such a key never holds an address literal.
 */
export type AddressForm = 'as-given' | 'key';

const FACTS_LIMIT = 100_000;
/** `prefetch` asks nothing while this many lookups wait: a list of a million domains does not queue a million. */
const PREFETCH_QUEUE = 256;

/**
 * The validation engine. Decides, in this order (the first that applies wins):
 *
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
export class Engine {
  private readonly allowIpLiteral: boolean;
  private readonly dns: DomainResolver | undefined;
  private readonly smtp: SmtpProber | undefined;
  private readonly facts = new Map<string, DomainFacts>();
  /** Domains whose persons' verdict is known, by their UTF-8 (see knownKeyBytes). */
  private readonly factsByBytes = new FactsByBytes();
  private readonly warned = new Set<string>();
  private readonly counts: Record<EngineStatus, number> = { valid: 0, invalid: 0, risky: 0, unknown: 0 };
  private readonly onWarning: ((message: string) => void) | undefined;
  private verified = 0;

  constructor(opts: EngineOptions = {}) {
    this.allowIpLiteral = opts.allowIpLiteral ?? false;
    this.onWarning = opts.onWarning;
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

  /** Syntax and lists only: no network, synchronous. What `verify` does when DNS is off. */
  verifyLocal(address: string): EngineVerdict {
    const syntax = checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok) return this.count(syntaxVerdict(syntax.reason));
    const facts = this.domainFacts(syntax.domain, syntax.ip !== undefined);
    const base = baseVerdict(syntax.local, syntax.smtputf8, facts);
    if (facts.reserved) return this.reserved(base);
    if (facts.suggestion) return this.count(decide(base, 'risky', 'possible_typo', null));
    if (facts.disposable) return this.count(decide(base, 'risky', 'disposable', null));
    if (base.role) return this.count(decide(base, 'risky', 'role', null));
    return this.count(decide(base, 'valid', '', null));
  }

  /** `form`: 'key' for an address already checked and keyed by `clean` (see AddressForm). */
  async verify(address: string, form: AddressForm = 'as-given'): Promise<EngineVerdict> {
    if (!this.dns) return this.verifyLocal(address);
    const parsed = this.parse(address, form);
    if ('status' in parsed) return parsed;
    if (parsed.facts.reserved) return this.reserved(parsed.base);
    // An address literal names its host: there is nothing to look up.
    const check = parsed.ip ? literalCheck(parsed.ip) : await this.dns.check(parsed.domain);
    if (!parsed.ip) parsed.facts.check = check;
    const decided = this.fromDns(parsed, check);
    if (decided) return decided;
    const { local, domain, smtputf8, base } = parsed;
    if (this.smtp && check.status === 'ok') {
      const outcome = await this.probe(check, local, domain, smtputf8);
      if (outcome.status === 'rejected') {
        return this.count({
          ...decide(base, 'invalid', 'mailbox_rejected', true),
          detail: `${outcome.reply.code} ${outcome.reply.text}`.slice(0, 200),
        });
      }
      if (outcome.status === 'unknown')
        return this.count({ ...decide(base, 'unknown', outcome.reason, true), detail: outcome.detail });
      if (outcome.status === 'accepted' && outcome.catchAll)
        return this.count(decide(base, 'risky', 'catch_all', true));
    }
    return this.passed(base);
  }

  /**
   * `verify`'s verdict at once when nothing is left to wait for (bad syntax, the domain's DNS answer in, no SMTP), else
   * undefined.
   */
  verifyKnown(address: string, form: AddressForm = 'as-given'): EngineVerdict | undefined {
    if (!this.dns) return this.verifyLocal(address);
    if (this.smtp) return undefined;
    if (form === 'key') return this.knownKey(address);
    const parsed = this.parse(address, form);
    if ('status' in parsed) return parsed;
    if (parsed.facts.reserved) return this.reserved(parsed.base);
    const check = parsed.ip ? literalCheck(parsed.ip) : parsed.facts.check;
    if (!check) return undefined;
    return this.fromDns(parsed, check) ?? this.passed(parsed.base);
  }

  /**
   * Starts looking up the address's domain, if it is new and few lookups wait, so that its answer is in by the time
   * the address is checked (`clean` prefetches while it reads the list). Never waits; decides nothing.
   */
  prefetch(address: string): void {
    if (!this.dns || this.dns.queued >= PREFETCH_QUEUE) return;
    // Most addresses of a list share a domain already asked about: found by the key's own domain, without parsing it.
    const known = this.facts.get(address.slice(address.lastIndexOf('@') + 1));
    if (known?.prefetched || known?.check) return;
    const syntax = checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok || syntax.ip !== undefined) return;
    const facts = this.domainFacts(syntax.domain, false);
    if (facts.prefetched || facts.check || facts.reserved) return;
    facts.prefetched = true;
    this.dns.check(syntax.domain).then(
      (check) => {
        facts.check ??= check;
      },
      () => {},
    );
  }

  /**
   * verifyKnown for a key given as its UTF-8 (bytes[start, end)): most keys of a list are decided without making a
   * string of them, by their domain's bytes and their local part's first letters (a person's, in ASCII); the others
   * as verifyKnown decides them.
   */
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

  /**
   * verifyKnown for a key. Once DNS has answered, a domain's addresses differ only in whether each is a role account
   * and needs SMTPUTF8 (unless the domain looks mistyped: the suggestion names the address), so they share one of
   * four verdicts: `clean` asks about a million addresses, and made four objects and a string or two for each.
   */
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
    const parsed: Parsed = { local, domain, smtputf8, facts, base };
    const verdict = facts.reserved ? this.reserved(base) : (this.fromDns(parsed, facts.check!) ?? this.passed(base));
    if (kind === 0) this.factsByBytes.add(domain, facts);
    return kind >= 0 ? shareVerdict(facts, kind, verdict) : verdict;
  }

  /** Every check passed: valid, or risky for a role address (step 10). */
  private passed(base: Base): EngineVerdict {
    return this.count(decide(base, base.role ? 'risky' : 'valid', base.role ? 'role' : '', true));
  }

  /** Syntax (a verdict when it fails) and what is known of the domain without DNS. */
  private parse(address: string, form: AddressForm): EngineVerdict | Parsed {
    const syntax = form === 'key' ? splitKey(address) : checkSyntax(address, { allowIpLiteral: this.allowIpLiteral });
    if (!syntax.ok) return this.count(syntaxVerdict(syntax.reason));
    const { local, domain, smtputf8, ip } = syntax;
    const facts = this.domainFacts(domain, ip !== undefined);
    return { local, domain, smtputf8, ip, facts, base: baseVerdict(local, smtputf8, facts) };
  }

  /** What DNS decides (steps 3-6); undefined when the mailbox is next. */
  private fromDns({ base, facts }: Parsed, check: DomainCheck): EngineVerdict | undefined {
    if (check.status === 'invalid') return this.count(decide(base, 'invalid', check.reason, false));
    if (facts.suggestion)
      return this.count(decide(base, 'risky', 'possible_typo', check.status === 'ok' ? true : null));
    if (facts.disposable) return this.count(decide(base, 'risky', 'disposable', check.status === 'ok' ? true : null));
    if (check.status === 'unknown')
      return this.count({ ...decide(base, 'unknown', 'dns_unavailable', null), detail: check.code });
    return undefined;
  }

  /** Step 2: a reserved TLD never takes mail, and is never asked about (with DNS or without). */
  private reserved(base: Base): EngineVerdict {
    return this.count(decide(base, 'invalid', 'reserved_domain', false));
  }

  /**
   * Why domain checks were skipped (DNS is off, or was found not to answer while checking), else undefined. Asks
   * nothing: a list whose domains needed no lookup (reserved TLDs) never waits on a resolver.
   */
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

  private async probe(
    check: Extract<DomainCheck, { status: 'ok' }>,
    local: string,
    domain: string,
    smtputf8: boolean,
  ): Promise<SmtpOutcome> {
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

/** An address that passed the syntax check, with what is known of its domain before DNS. */
type Parsed = { local: string; domain: string; smtputf8: boolean; ip?: string; facts: DomainFacts; base: Base };
