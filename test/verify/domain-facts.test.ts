// Domains' facts found by the domain's UTF-8 (what the local check reads a list's keys as).
import { describe, expect, it } from 'vitest';
import { FactsByBytes, factsOf } from '../../src/verify/domain-facts.js';

describe('FactsByBytes', () => {
  it('finds each domain added by its bytes anywhere in a buffer, past many regrowths; others not at all', () => {
    const byBytes = new FactsByBytes();
    const domains = Array.from({ length: 20_000 }, (_, i) => (i % 10 === 0 ? `bücher${i}.example` : `d${i}.example`));
    const facts = domains.map((domain) => factsOf(domain, false));
    domains.forEach((domain, i) => byBytes.add(domain, facts[i]!));
    // Added twice: kept once, as it was.
    byBytes.add(domains[0]!, facts[0]!);
    for (const [i, domain] of domains.entries()) {
      const key = Buffer.from(`ann@${domain}`, 'utf8');
      expect(byBytes.get(key, 4, key.length)).toBe(facts[i]);
    }
    for (const absent of ['d20000.example', 'd1.exampl', 'd1.examplex', '', 'bücher0.example.']) {
      const bytes = Buffer.from(absent, 'utf8');
      expect(byBytes.get(bytes, 0, bytes.length), absent).toBeUndefined();
    }
    byBytes.clear();
    const again = Buffer.from(domains[1]!, 'utf8');
    expect(byBytes.get(again, 0, again.length)).toBeUndefined();
    byBytes.add(domains[1]!, facts[1]!);
    expect(byBytes.get(again, 0, again.length)).toBe(facts[1]);
  });
});
