import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asciiLower, checkInFull, checkSyntax, dedupeKey, isPlainAddress } from '../../src/verify/syntax.js';

interface CorpusEntry {
  address: string;
  expect: 'valid' | 'invalid';
  source: string;
  diagnosis?: string;
  note?: string;
}

const load = (name: string): CorpusEntry[] =>
  JSON.parse(readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8')) as CorpusEntry[];
const corpus = [...load('is-email.json'), ...load('rfc-examples.json')];

/**
 * Where checkSyntax knowingly departs from the corpus; each one is justified in docs/verify.md
 * ("Syntax corpus"). A new disagreement, or one of these turning into agreement, fails the test.
 */
const KNOWN_DISAGREEMENTS = ['test@io', 'test@iana.123', 'test@255.255.255.255', 'test@org'];

describe('syntax corpus', () => {
  // The corpus judges the exact string (no trimming); address literals are a policy option, on here.
  const results = corpus.map((entry) => {
    const result = checkSyntax(entry.address, { trim: false, allowIpLiteral: true });
    return { entry, got: result.ok ? 'valid' : 'invalid', reason: result.ok ? '' : result.reason };
  });
  const disagreements = results.filter((r) => r.got !== r.entry.expect);
  const agreement = (results.length - disagreements.length) / results.length;

  it('has at least 150 distinct addresses', () => {
    expect(new Set(corpus.map((e) => e.address)).size).toBe(corpus.length);
    expect(corpus.length).toBeGreaterThanOrEqual(150);
  });

  it('agrees with at least 98% of the expected verdicts', () => {
    console.log(
      `syntax corpus: ${results.length - disagreements.length}/${results.length} agree (${(agreement * 100).toFixed(2)}%)`,
    );
    expect(agreement).toBeGreaterThanOrEqual(0.98);
  });

  it('disagrees only where docs/verify.md says why', () => {
    expect(disagreements.map((d) => d.entry.address).sort()).toEqual([...KNOWN_DISAGREEMENTS].sort());
  });

  it('gives a reason for every rejection', () => {
    for (const r of results) if (r.got === 'invalid') expect(r.reason, JSON.stringify(r.entry.address)).not.toBe('');
  });
});

describe("clean's keys", () => {
  // The engine splits a key instead of checking it again (AddressForm 'key'): that is only sound if a key is itself
  // well-formed, with the parts it was made of (the local part's letters A-Z in lower case, unless case-sensitive).
  it('are well-formed addresses whose parts are the ones they were made of', () => {
    const valid = [...corpus.map((e) => e.address), ' Ann.Lee@Example.COM ', 'a@bücher.example', 'zoë@x.example'];
    let keys = 0;
    for (const address of valid) {
      const parts = checkSyntax(address);
      if (!parts.ok) continue;
      keys++;
      const key = dedupeKey(parts.local, parts.domain);
      expect(checkSyntax(key, { trim: false }), key).toEqual({ ...parts, local: asciiLower(parts.local) });
      expect(key.slice(0, key.lastIndexOf('@')), key).toBe(asciiLower(parts.local));
      const exact = dedupeKey(parts.local, parts.domain, true);
      expect(checkSyntax(exact, { trim: false }), exact).toEqual(parts);
    }
    expect(keys).toBeGreaterThan(50);
  });
});

describe('the shortcut for plain addresses', () => {
  it('gives the full check’s answer on the corpus and on addresses near the plain shape', () => {
    const near = [
      'a@b.co',
      'A.B@x-y.example',
      'a..b@x.com',
      'a@-x.com',
      'a@x-.com',
      'a@x.c',
      'a@x.com1',
      `${'l'.repeat(64)}@x.com`,
      `${'l'.repeat(65)}@x.com`,
    ];
    near.push(
      `a@${'d'.repeat(63)}.com`,
      `a@${'d'.repeat(64)}.com`,
      'a@xn--bcher-kva.example',
      'a@xn--a.com',
      'a@X.com',
      "o'brien+tag@mail.example.org",
    );
    for (const address of [...corpus.map((e) => e.address), ...near]) {
      for (const allowIpLiteral of [false, true]) {
        expect(checkSyntax(address, { trim: false, allowIpLiteral }), address).toEqual(
          checkInFull(address, { allowIpLiteral }),
        );
      }
    }
    expect(near.filter((address) => isPlainAddress(address)).length).toBeGreaterThan(4);
  });
});
