import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyOfCell } from '../../src/clean/scan/cell-key.js';
import { DomainResolver } from '../../src/verify/dns.js';
import { Engine, type EngineOptions } from '../../src/verify/engine.js';
import { closedUdpPort, startDnsServer, type TestDnsServer, type ZoneEntry } from '../helpers/dns-server.js';

/** A DNS server where the names `pattern` matches take mail, and an engine asking it (four lookups at a time). */
async function withMailDomains(
  pattern: RegExp,
  body: (server: TestDnsServer, engine: Engine) => Promise<void>,
): Promise<void> {
  const server = await startDnsServer((name): ZoneEntry | undefined =>
    pattern.test(name) ? { MX: [{ preference: 10, exchange: `mx.${name}` }] } : undefined,
  );
  try {
    await body(server, new Engine({ dns: { servers: [server.server], concurrency: 4 } }));
  } finally {
    await server.close();
  }
}

// Under .internal (private use, like a company's own zones), never a reserved TLD such as .test: those are not looked up.
const ZONES: Record<string, ZoneEntry> = {
  // The canary: a resolver that knows `com` sees the Internet, so its NXDOMAIN answers are believed.
  com: { NS: ['a.gtld.example'] },
  'mx.internal': {
    MX: [
      { preference: 20, exchange: 'backup.mx.internal' },
      { preference: 10, exchange: 'mail.mx.internal' },
    ],
  },
  'mail.mx.internal': { A: ['127.0.0.1'] },
  'a-only.internal': { A: ['192.0.2.10'] },
  'aaaa-only.internal': { AAAA: ['2001:db8::10'] },
  'nullmx.internal': { MX: [{ preference: 0, exchange: '.' }] },
  'empty.internal': {},
  'servfail.example.net': { rcode: 'SERVFAIL' },
  'refused.example.net': { rcode: 'REFUSED' },
  'silent.example.net': { silent: true },
  'mailinator.com': { MX: [{ preference: 10, exchange: 'mail.mx.internal' }] },
  'gmial.com': { MX: [{ preference: 10, exchange: 'mail.mx.internal' }] },
  'info.internal': { MX: [{ preference: 10, exchange: 'mail.mx.internal' }] },
};

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer(ZONES);
});
afterAll(async () => {
  await dns.close();
});

const engine = (extra: EngineOptions = {}) =>
  new Engine({ ...extra, dns: { servers: [dns.server], timeoutMs: 200, tries: 1, ...extra.dns } });

describe('DNS checks against a DNS server on 127.0.0.1', () => {
  it('accepts a domain with MX records and ranks them by preference', async () => {
    expect(await engine().verify('ann@mx.internal')).toMatchObject({
      status: 'valid',
      reason: '',
      isValidDomain: true,
    });
    const check = await new DomainResolver({ servers: [dns.server] }).check('mx.internal');
    expect(check).toEqual({
      status: 'ok',
      hosts: [
        { exchange: 'mail.mx.internal', priority: 10 },
        { exchange: 'backup.mx.internal', priority: 20 },
      ],
    });
  });

  it('falls back to A, then AAAA, when there is no MX (RFC 5321 section 5.1)', async () => {
    expect(await engine().verify('ann@a-only.internal')).toMatchObject({ status: 'valid', isValidDomain: true });
    expect(await engine().verify('ann@aaaa-only.internal')).toMatchObject({ status: 'valid', isValidDomain: true });
    const resolver = new DomainResolver({ servers: [dns.server] });
    expect(await resolver.check('a-only.internal')).toEqual({
      status: 'ok',
      hosts: [{ exchange: 'a-only.internal', priority: 0 }],
      implicit: { addresses: ['192.0.2.10'] },
    });
    expect(resolver.stats()).toMatchObject({ lookups: 1, queries: 2 });
  });

  it('calls a null MX invalid (RFC 7505)', async () => {
    expect(await engine().verify('ann@nullmx.internal')).toMatchObject({
      status: 'invalid',
      reason: 'null_mx',
      valid: false,
      isValidDomain: false,
    });
  });

  it('calls NXDOMAIN invalid', async () => {
    expect(await engine().verify('ann@nowhere.internal')).toMatchObject({
      status: 'invalid',
      reason: 'no_domain',
      valid: false,
      isValidDomain: false,
    });
  });

  it('calls a domain with neither MX nor A/AAAA invalid', async () => {
    const e = engine();
    expect(await e.verify('ann@empty.internal')).toMatchObject({
      status: 'invalid',
      reason: 'no_mx',
      isValidDomain: false,
    });
    expect(e.stats().dns).toMatchObject({ lookups: 1, queries: 3, canaryQueries: 1 });
  });

  it('a resolver that denies com exists (offline, a sandbox): asked once, then no domain is asked', async () => {
    const liar = await startDnsServer((name) => (name === 'com' ? { rcode: 'NXDOMAIN' } : undefined));
    try {
      const warnings: string[] = [];
      const e = new Engine({ dns: { servers: [liar.server] }, onWarning: (m) => warnings.push(m) });
      const verdicts = await Promise.all(
        ['ann@gmail.com', 'bob@example.org', 'cy@gmail.com', 'info@example.net'].map((a) => e.verify(a)),
      );
      for (const v of verdicts)
        expect(v).toMatchObject({ status: 'unknown', reason: 'dns_unavailable', valid: null, isValidDomain: null });
      expect(warnings).toEqual([
        'DNS is unreachable (the resolver says com does not exist: ENOTFOUND): domain checks are unknown',
      ]);
      expect(liar.queries).toEqual([{ name: 'com', type: 'NS' }]);
      expect(e.stats().dns).toMatchObject({ lookups: 0, queries: 0, canaryQueries: 1, skipped: 3 });
      // A reserved TLD is still judged without DNS.
      expect(await e.verify('dan@site.invalid')).toMatchObject({ status: 'invalid', reason: 'reserved_domain' });
    } finally {
      await liar.close();
    }
  });

  it('believes every answer when the canary is off', async () => {
    const liar = await startDnsServer((name) => (name === 'com' ? { rcode: 'NXDOMAIN' } : undefined));
    try {
      const e = new Engine({ dns: { servers: [liar.server], canary: false } });
      expect(await e.verify('ann@gmail.com')).toMatchObject({ status: 'invalid', reason: 'no_domain' });
      expect(liar.queries.some((q) => q.type === 'NS')).toBe(false);
    } finally {
      await liar.close();
    }
  });

  it('calls SERVFAIL, REFUSED and a timeout unknown, never invalid, and says so once per cause', async () => {
    const warnings: string[] = [];
    const e = engine({ onWarning: (m) => warnings.push(m) });
    for (const domain of ['servfail.example.net', 'refused.example.net', 'silent.example.net']) {
      const v = await e.verify(`ann@${domain}`);
      expect(v, domain).toMatchObject({
        status: 'unknown',
        reason: 'dns_unavailable',
        valid: null,
        isValidDomain: null,
      });
    }
    expect((await e.verify('bob@servfail.example.net')).status).toBe('unknown');
    expect(warnings).toEqual([
      'DNS lookups failed (ESERVFAIL): those domain checks are unknown',
      'DNS lookups failed (EREFUSED): those domain checks are unknown',
      'DNS gave no answer for some domains (ETIMEOUT): those domain checks are unknown',
    ]);
  });

  it('calls a disposable domain risky when it takes mail, invalid when DNS says it does not', async () => {
    const e = engine();
    expect(await e.verify('ann@mailinator.com')).toMatchObject({
      status: 'risky',
      reason: 'disposable',
      isDisposable: true,
      isValidDomain: true,
    });
    expect(await e.verify('ann@yopmail.com')).toMatchObject({
      status: 'invalid',
      reason: 'no_domain',
      isDisposable: true,
    });
  });

  it('calls a mistyped provider a possible typo even when it takes mail, invalid when DNS says it does not', async () => {
    const e = engine();
    expect(await e.verify('ann@gmial.com')).toMatchObject({
      status: 'risky',
      reason: 'possible_typo',
      isDisposable: false,
      isValidDomain: true,
      suggestion: 'ann@gmail.com',
    });
    expect(await e.verify('ann@hotmial.com')).toMatchObject({
      status: 'invalid',
      reason: 'no_domain',
      suggestion: 'ann@hotmail.com',
    });
  });

  it('keeps role accounts risky only when the domain is fine', async () => {
    const e = engine();
    expect(await e.verify('info@mx.internal')).toMatchObject({ status: 'risky', reason: 'role', isValidDomain: true });
    expect(await e.verify('info@nullmx.internal')).toMatchObject({ status: 'invalid', reason: 'null_mx' });
  });

  it('decides at once (verifyKnown) what verify decides, once the domain is known; never before, never with SMTP', async () => {
    const e = engine();
    const addresses = [
      'ann@mx.internal',
      'info@mx.internal',
      'ann@nullmx.internal',
      'ann@gmial.com',
      'ann@mailinator.com',
      'ann@servfail.example.net',
      'bob@empty.internal',
    ];
    expect(e.verifyKnown('not an address')).toMatchObject({ status: 'invalid', reason: 'syntax' });
    for (const address of addresses) expect(e.verifyKnown(address)).toBeUndefined();
    const waited = [];
    for (const address of addresses) waited.push(await e.verify(address));
    expect(addresses.map((address) => e.verifyKnown(address))).toEqual(waited);
    expect(new Set(waited.map((v) => v.reason)).size).toBeGreaterThan(5);
    const probing = engine({ smtp: { enabled: true, port: 9 } });
    await probing.verify('ann@mx.internal').catch(() => undefined);
    expect(probing.verifyKnown('ann@mx.internal')).toBeUndefined();
    await probing.close();
  });

  it("decides clean's key for an address (split, not checked again) as it decides the address itself", async () => {
    const e = engine();
    const written = [
      'ann@mx.internal',
      'Ann.Lee@MX.Internal',
      ' info+news@mx.internal ',
      'zoë@mx.internal',
      '"ann lee"@mx.internal',
      'ann@nullmx.internal',
      'ann@gmial.com',
      'ann@mailinator.com',
      'ann@servfail.example.net',
      'ann@example.test',
    ];
    const keys = written.map((address) => keyOfCell(address).key!);
    expect(keys).not.toContain(undefined);
    const asGiven = await Promise.all(written.map((address) => engine().verify(address)));
    expect(await Promise.all(keys.map((key) => e.verify(key, 'key')))).toEqual(asGiven);
    expect(keys.map((key) => e.verifyKnown(key, 'key'))).toEqual(asGiven);
    expect(asGiven.filter((v) => v.smtputf8 || v.role || v.suggestion).length).toBe(3);
  });

  it("gives a key the verdict other addresses of its domain and kind share, never one naming another's", async () => {
    const e = engine();
    const written = ['ann@mx.internal', 'bob@mx.internal', 'info@mx.internal', 'sales@mx.internal'];
    const keys = [...written, 'zoë@mx.internal', 'zoé@mx.internal', 'ann@gmial.com', 'bob@gmial.com'];
    keys.push('cy@a-only.internal');
    for (const [i, address] of keys.entries()) keys[i] = keyOfCell(address).key!;
    for (const key of keys) await e.verify(key, 'key');
    const known = keys.map((key) => e.verifyKnown(key, 'key')!);
    const reference = engine();
    expect(known).toEqual(await Promise.all(keys.map((key) => reference.verify(key, 'key'))));
    // A person, a role account, an address in SMTPUTF8: one verdict each for the domain.
    expect(known[1]).toBe(known[0]);
    expect(known[3]).toBe(known[2]);
    expect(known[5]).toBe(known[4]);
    expect(new Set(known.slice(0, 6)).size).toBe(3);
    expect(Object.isFrozen(known[0])).toBe(true);
    // Another domain whose persons' verdict reads the same gives the same object.
    expect(known[8]).toBe(known[0]);
    // A mistyped domain's suggestion names the address: never shared.
    expect([known[6]!.suggestion, known[7]!.suggestion]).toEqual(['ann@gmail.com', 'bob@gmail.com']);
    // Shared or not, each answer counts.
    const { verified, byStatus } = e.stats();
    expect(verified).toBe(keys.length * 2);
    expect(Object.values(byStatus).reduce((sum, n) => sum + n, 0)).toBe(keys.length * 2);
  });

  it("decides a key given as its bytes as verifyKnown decides the key, most of them from the domain's bytes", async () => {
    const e = engine();
    const written = [
      'ann@mx.internal',
      'Bob@mx.internal',
      'info@mx.internal',
      'zoë@mx.internal',
      'ann.zoë@mx.internal',
    ];
    written.push('sales+eu@mx.internal', 'ann@nullmx.internal', 'bob@nullmx.internal', 'ann@gmial.com', 'ann@x.test');
    const keys = written.map((address) => keyOfCell(address).key!);
    const bytes = (key: string) => {
      // Within a larger buffer, as a list's keys are read.
      const utf8 = Buffer.from(`##${key}##`, 'utf8');
      return [utf8, 2, utf8.length - 2] as const;
    };
    // Nothing known of a domain yet: nothing decided, except what needs no DNS (a reserved name).
    expect(keys.map((key) => e.knownKeyBytes(...bytes(key)))).toEqual(keys.map((key) => e.verifyKnown(key, 'key')));
    expect(e.knownKeyBytes(...bytes('ann@mx.internal'))).toBeUndefined();
    for (const key of keys) await e.verify(key, 'key');
    const reference = engine();
    const expected = await Promise.all(keys.map((key) => reference.verify(key, 'key')));
    // Twice: the first reads each kind of key whole, the second finds the persons' by their domain's bytes, reading
    // whole (verifyKnown) only the role accounts, the SMTPUTF8 ones and the mistyped domain's.
    expect(keys.map((key) => e.knownKeyBytes(...bytes(key)))).toEqual(expected);
    const readWhole = vi.spyOn(e, 'verifyKnown');
    expect(keys.map((key) => e.knownKeyBytes(...bytes(key)))).toEqual(expected);
    const notPersons = expected.filter((v) => v.role || v.smtputf8 || v.suggestion !== undefined).length;
    expect(readWhole).toHaveBeenCalledTimes(notPersons);
    readWhole.mockRestore();
    expect(e.knownKeyBytes(...bytes(keys[1]!))).toBe(e.verifyKnown(keys[0]!, 'key'));
    expect(expected.map((v) => [v.role, v.smtputf8, v.suggestion !== undefined])).toEqual([
      [false, false, false],
      [false, false, false],
      [true, false, false],
      [false, true, false],
      [false, true, false],
      [true, false, false],
      [false, false, false],
      [false, false, false],
      [false, false, true],
      [false, false, false],
    ]);
  });

  it('prefetch: asks about each new domain once, without waiting; verifyKnown then decides as verify would', async () => {
    await withMailDomains(/^d\d+\.pre\.internal$/, async (server, e) => {
      const addresses = Array.from({ length: 300 }, (_, i) => `user${i}@d${i % 30}.pre.internal`);
      for (const address of ['not an address', 'ann@[127.0.0.1]', ...addresses]) e.prefetch(address);
      expect(addresses.some((address) => e.verifyKnown(address) !== undefined)).toBe(false);
      await vi.waitFor(() => expect(addresses.every((address) => e.verifyKnown(address) !== undefined)).toBe(true));
      const reference = new Engine({ dns: { servers: [server.server] } });
      expect(addresses.map((address) => e.verifyKnown(address))).toEqual(
        await Promise.all(addresses.map((address) => reference.verify(address))),
      );
      expect(e.stats().dns.queries).toBe(30);
    });
  });

  it('prefetch asks nothing more while 256 lookups wait', async () => {
    // A silent resolver: the canary (com), asked first, never answers, so every lookup waits behind it; once it has
    // timed out, the lookups that were queued end at once (unknown), and only theirs.
    const server = await startDnsServer(() => ({ silent: true }));
    const e = new Engine({ dns: { servers: [server.server], concurrency: 4, timeoutMs: 200, tries: 1 } });
    try {
      const addresses = Array.from({ length: 1000 }, (_, i) => `user@d${i}.silent.net`);
      for (const address of addresses) e.prefetch(address);
      await vi.waitFor(() => expect(e.verifyKnown(addresses[0]!)).toMatchObject({ reason: 'dns_unavailable' }), {
        timeout: 5_000,
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const decided = addresses.filter((address) => e.verifyKnown(address) !== undefined).length;
      expect(decided).toBeGreaterThanOrEqual(256);
      expect(decided).toBeLessThanOrEqual(256 + 4);
    } finally {
      await e.close();
      await server.close();
    }
  });

  it('never looks up a reserved TLD, even when DNS is on and would answer (not even the canary)', async () => {
    const server = await startDnsServer(() => ({ MX: [{ preference: 10, exchange: 'mx.example.net' }] }));
    const e = new Engine({ dns: { servers: [server.server] } });
    try {
      const addresses = ['ann@info.test', 'bob@site.example', 'cy@host.invalid', 'dan@host.localhost'];
      for (const address of addresses) e.prefetch(address);
      for (const address of addresses) {
        expect(e.verifyKnown(address)).toMatchObject({ status: 'invalid', reason: 'reserved_domain' });
        expect(await e.verify(address)).toMatchObject({ status: 'invalid', reason: 'reserved_domain', valid: false });
      }
      expect(server.queries).toEqual([]);
      expect(e.dnsSkipped()).toBeUndefined();
    } finally {
      await e.close();
      await server.close();
    }
  });

  it('looks each domain up once: queries equal distinct domains', async () => {
    await withMailDomains(/^d\d+\.bulk\.internal$/, async (server, e) => {
      const addresses = Array.from({ length: 1200 }, (_, i) => `user${i}@d${i % 25}.bulk.internal`);
      const verdicts = await Promise.all(addresses.map((a) => e.verify(a)));
      expect(verdicts.every((v) => v.status === 'valid')).toBe(true);
      const stats = e.stats().dns;
      expect(stats.lookups).toBe(25);
      expect(stats.queries).toBe(25);
      // Besides one question for the canary (com), asked before any domain.
      expect(server.queries.length).toBe(26);
      expect(server.queries[0]).toEqual({ name: 'com', type: 'NS' });
      expect(new Set(server.queries.slice(1).map((q) => q.name)).size).toBe(25);
      expect(stats.cacheHits).toBe(1200 - 25);
    });
  });

  it('counts one lookup per domain even when the A fallback takes more queries', async () => {
    const e = engine();
    await Promise.all(
      ['a@a-only.internal', 'b@a-only.internal', 'c@mx.internal', 'd@empty.internal', 'e@empty.internal'].map((a) =>
        e.verify(a),
      ),
    );
    // a-only: MX + A; mx: MX; empty: MX + A + AAAA.
    expect(e.stats().dns).toMatchObject({ lookups: 3, queries: 6 });
  });

  it('looks up at most `concurrency` domains at once', async () => {
    const server = await startDnsServer((name) =>
      name.endsWith('.slowish.internal') ? { MX: [{ preference: 1, exchange: 'mx.example' }], delayMs: 30 } : undefined,
    );
    try {
      const e = new Engine({ dns: { servers: [server.server], concurrency: 3 } });
      await Promise.all(Array.from({ length: 30 }, (_, i) => e.verify(`a@d${i}.slowish.internal`)));
      expect(server.queries.filter((q) => q.type === 'MX')).toHaveLength(30);
      expect(server.maxInFlight).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('never calls an address invalid when DNS is unreachable, and warns once', async () => {
    const port = await closedUdpPort();
    const warnings: string[] = [];
    const e = new Engine({
      dns: { servers: [`127.0.0.1:${port}`], timeoutMs: 200, tries: 1 },
      onWarning: (m) => warnings.push(m),
    });
    const addresses = Array.from({ length: 60 }, (_, i) => `user${i}@d${i % 20}.example.com`);
    const verdicts = await Promise.all(addresses.map((a) => e.verify(a)));
    for (const v of verdicts)
      expect(v).toMatchObject({ status: 'unknown', reason: 'dns_unavailable', valid: null, isValidDomain: null });
    // The canary (com) found it out before any domain was asked.
    expect(warnings).toEqual([
      'DNS is unreachable (the resolver says com does not exist: ECONNREFUSED): domain checks are unknown',
    ]);
    // Syntax and lists still decide where they can, and so do reserved TLDs.
    expect(await e.verify('ann@site.test')).toMatchObject({ status: 'invalid', reason: 'reserved_domain' });
    expect(await e.verify('bad@@example.com')).toMatchObject({ status: 'invalid', reason: 'syntax' });
    expect(await e.verify('x@mailinator.com')).toMatchObject({ status: 'risky', reason: 'disposable' });
    // None of the domains was asked.
    const stats = e.stats().dns;
    expect(stats).toMatchObject({ lookups: 0, queries: 0, canaryQueries: 1, skipped: 21 }); // 20 domains, mailinator.com
    expect(e.dnsSkipped()).toBe('ECONNREFUSED');
    await e.close();
  });
});
