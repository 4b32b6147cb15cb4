// The engine's DNS at the pace of the resolver (src/verify/dns-pace.ts): slow answers, domains that never answer, a
// resolver that refuses or fails for a while, one that stops answering. Against a DNS server on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/verify/engine.js';
import { startDnsServer, type ZoneEntry } from '../helpers/dns-server.js';

const MX = [{ preference: 10, exchange: 'mx.example.net' }];
const kindOf = (name: string) => {
  const n = Number(/^d(\d+)\.pace\.internal$/.exec(name)?.[1] ?? -1);
  return n < 0 ? 'other' : n % 20 === 3 ? 'silent' : n % 20 === 7 ? 'missing' : 'mail';
};

describe('DNS at the pace of the resolver', () => {
  it('slow answers and domains that never answer: those unknown, never invalid; the others as DNS says', async () => {
    const server = await startDnsServer((name): ZoneEntry | undefined => {
      const kind = kindOf(name);
      if (kind === 'silent') return { silent: true };
      if (kind === 'mail') return { MX, delayMs: 20 + (name.length % 3) * 10 };
      return undefined;
    });
    const warnings: string[] = [];
    // The defaults: how many at once and how long each waits are learned from the answers.
    const e = new Engine({ dns: { servers: [server.server] }, onWarning: (m) => warnings.push(m) });
    try {
      const domains = Array.from({ length: 200 }, (_, i) => `d${i}.pace.internal`);
      const verdicts = await Promise.all(domains.map((d) => e.verify(`ann@${d}`)));
      const expected = {
        mail: ['valid', ''],
        missing: ['invalid', 'no_domain'],
        silent: ['unknown', 'dns_unavailable'],
      };
      expect(verdicts.map((v) => [v.status, v.reason])).toEqual(
        domains.map((d) => expected[kindOf(d) as keyof typeof expected]),
      );
      // The silent domains were asked before the others answered: they say nothing about the resolver.
      expect(e.dnsSkipped()).toBeUndefined();
      expect(warnings).toEqual(['DNS gave no answer for some domains (ETIMEOUT): those domain checks are unknown']);
      // Each silent domain tried twice (c-ares may send a try's question again), each other asked once.
      const asked = (domain: string) => server.queries.filter((q) => q.type === 'MX' && q.name === domain).length;
      expect(domains.filter((d) => kindOf(d) !== 'silent' && asked(d) !== 1)).toEqual([]);
      expect(domains.filter((d) => kindOf(d) === 'silent' && asked(d) < 2)).toEqual([]);
      // More in flight than the old fixed 16, and no more than the lookups asked.
      expect(server.maxInFlight).toBeGreaterThan(16);
    } finally {
      await e.close();
      await server.close();
    }
  });

  it('a resolver that refuses or fails its first questions (rate limiting) slows the engine down: no domain unknown', async () => {
    let busy = 90;
    const server = await startDnsServer((name): ZoneEntry | undefined => {
      if (name === 'com') return { NS: ['a.gtld.example'] };
      if (busy > 0) return { rcode: busy-- % 2 === 0 ? 'REFUSED' : 'SERVFAIL' };
      return kindOf(name) === 'missing' ? undefined : { MX };
    });
    const warnings: string[] = [];
    const e = new Engine({ dns: { servers: [server.server] }, onWarning: (m) => warnings.push(m) });
    try {
      const domains = Array.from({ length: 60 }, (_, i) => `d${i}.pace.internal`);
      const verdicts = await Promise.all(domains.map((d) => e.verify(`ann@${d}`)));
      expect(verdicts.map((v) => v.status)).toEqual(
        domains.map((d) => (kindOf(d) === 'missing' ? 'invalid' : 'valid')),
      );
      expect(warnings).toEqual([]);
      // Asked again after the refusals: every refused question was.
      expect(server.queries.filter((q) => q.type === 'MX')).toHaveLength(60 + 90);
    } finally {
      await e.close();
      await server.close();
    }
  });

  it('a resolver that stops answering mid-run: after 5 domains without an answer, the rest are not asked', async () => {
    const server = await startDnsServer((name) => (name === 'com' ? { NS: ['a.gtld.example'] } : { silent: true }));
    const warnings: string[] = [];
    const e = new Engine({
      dns: { servers: [server.server], concurrency: 2, timeoutMs: 50, tries: 1 },
      onWarning: (m) => warnings.push(m),
    });
    try {
      const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => e.verify(`ann@d${i}.pace.internal`)));
      expect(verdicts.every((v) => v.status === 'unknown' && v.reason === 'dns_unavailable')).toBe(true);
      expect(e.dnsSkipped()).toBe('ETIMEOUT');
      // Two in flight when the fifth gave up: at most six asked.
      expect(server.queries.filter((q) => q.type === 'MX').length).toBeLessThanOrEqual(6);
      expect(warnings).toEqual(['DNS is unreachable (ETIMEOUT): domain checks are unknown']);
    } finally {
      await e.close();
      await server.close();
    }
  });

  it('a fixed concurrency and timeout are kept: one domain at a time', async () => {
    const server = await startDnsServer((name) => (kindOf(name) === 'mail' ? { MX, delayMs: 10 } : undefined));
    const e = new Engine({ dns: { servers: [server.server], concurrency: 1, timeoutMs: 2_000 } });
    try {
      const verdicts = await Promise.all(
        Array.from({ length: 12 }, (_, i) => e.verify(`ann@d${i * 20}.pace.internal`)),
      );
      expect(verdicts.every((v) => v.status === 'valid')).toBe(true);
      expect(server.maxInFlight).toBe(1);
    } finally {
      await e.close();
      await server.close();
    }
  });
});
