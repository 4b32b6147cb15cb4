// Typo suggestions measured on generated corpora (test/helpers/typo-corpus.mjs), not on the cases they were tuned
// for: two seeds, the thirty domains lists hold most and every target. bench/typo.mjs compares mailcheck on them.
import { describe, expect, it } from 'vitest';
import { suggest } from '../../src/library/index.js';
import { Engine } from '../../src/verify/engine.js';
import { FREE_PROVIDERS } from '../../src/verify/lists.js';
import { isKnown } from '../../src/verify/typo.js';
import { REAL_LOOK_ALIKES, TARGET_DOMAINS } from '../../src/verify/typo-domains.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { typoCorpus } from '../helpers/typo-corpus.mjs';

interface Corpus {
  typos: { address: string; intended: string; kind: string }[];
  correct: string[];
}

function corpusOf(meant: readonly string[], seed: number): Corpus {
  return typoCorpus({ meant, realDomains: [...REAL_LOOK_ALIKES, ...FREE_PROVIDERS], isReal: isKnown, seed });
}

const localOf = (address: string) => address.slice(0, address.lastIndexOf('@'));

describe.each([
  ['the thirty domains lists hold most', TARGET_DOMAINS.slice(0, 30)],
  ['every target', TARGET_DOMAINS],
])('suggestions on a corpus of slips of %s', (_, meant) => {
  it.each([1, 2])(
    'seed %i: >= 95% of typos get the intended address, >= 99% of suggestions are right, no correct address gets one',
    (seed) => {
      const corpus = corpusOf(meant, seed);
      expect(corpus.typos.length).toBeGreaterThan(meant.length * 15);
      expect(corpus.correct.length).toBeGreaterThan(400);
      const suggestions = corpus.typos.map((typo) => ({ ...typo, suggestion: suggest(typo.address) }));
      const given = suggestions.filter((s) => s.suggestion !== undefined);
      const found = given.filter((s) => s.suggestion === s.intended);
      expect(found.length / corpus.typos.length).toBeGreaterThanOrEqual(0.95);
      expect(found.length / given.length).toBeGreaterThanOrEqual(0.99);
      for (const s of given) expect(localOf(s.suggestion!), s.address).toBe(localOf(s.address));
      expect(corpus.correct.filter((address) => suggest(address) !== undefined)).toEqual([]);
      // Every kind of slip is in the corpus, and each is mostly caught.
      for (const kind of ['neighbour', 'omission', 'extra', 'doubled', 'swap', 'tld']) {
        const ofKind = suggestions.filter((s) => s.kind === kind);
        expect(ofKind.filter((s) => s.suggestion === s.intended).length / ofKind.length, kind).toBeGreaterThan(0.8);
      }
    },
  );
});

describe('the corpus', () => {
  it('is the same for a seed and differs between seeds', () => {
    const meant = TARGET_DOMAINS.slice(0, 5);
    expect(corpusOf(meant, 7)).toEqual(corpusOf(meant, 7));
    expect(corpusOf(meant, 7).typos).not.toEqual(corpusOf(meant, 8).typos);
  });

  it('holds no typo that is a real domain, and no typo twice', () => {
    const { typos } = corpusOf(TARGET_DOMAINS, 1);
    const domains = typos.map((t) => t.address.slice(t.address.lastIndexOf('@') + 1));
    expect(domains.filter(isKnown)).toEqual([]);
    expect(new Set(domains).size).toBe(domains.length);
  });
});

describe('the engine, with DNS answering every name (typo domains are often registered and parked)', () => {
  it('gives the same suggestion as suggest() for each typo, and none for a correct address', async () => {
    const server = await startDnsServer((name) => ({ MX: [{ preference: 10, exchange: `mx.${name}` }] }));
    try {
      const engine = new Engine({ dns: { servers: [server.server], concurrency: 4 } });
      const { typos, correct } = corpusOf(TARGET_DOMAINS.slice(0, 30), 3);
      // Syntax comes first in the engine: a domain without a dot (`gmailcom`) is no address there.
      for (const { address } of typos.filter((_, i) => i % 4 === 0)) {
        const verdict = await engine.verify(address);
        const expected = suggest(address);
        if (expected) expect(verdict, address).toMatchObject({ reason: 'possible_typo', suggestion: expected });
        else expect(verdict.suggestion, address).toBeUndefined();
        expect(verdict.isValidDomain, address).not.toBe(false);
      }
      for (const address of correct.filter((_, i) => i % 4 === 0)) {
        expect((await engine.verify(address)).suggestion, address).toBeUndefined();
      }
    } finally {
      await server.close();
    }
  });
});
