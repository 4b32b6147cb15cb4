import { describe, expect, it } from 'vitest';
import { prefilter } from '../../src/clean/prefilter.js';
import { checkSyntax, dedupeKey } from '../../src/verify/syntax.js';

/** What the full RFC check says the key is (or that there is none). */
function slowKey(cell: string): string | undefined {
  const r = checkSyntax(cell.trim());
  return r.ok ? dedupeKey(r.local, r.domain) : undefined;
}

describe('prefilter', () => {
  const cases = [
    'ann@example.com', ' ann@example.com ', 'Ann.Lee+tag@example.co.uk', 'ann@EXAMPLE.com', 'ann@example.COM',
    'a..b@example.com', '.a@example.com', 'a.@example.com', 'a@-example.com', 'a@example-.com', 'a@example.c',
    'a@example.123', 'a@localhost', `${'x'.repeat(64)}@example.com`, `${'x'.repeat(65)}@example.com`,
    `a@${'l'.repeat(63)}.com`, `a@${'l'.repeat(64)}.com`, `${'x'.repeat(64)}@${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`,
    '"quoted local"@example.com', 'zoë@example.com', 'ann@bücher.de', 'ann@xn--bcher-kva.de', 'a@xn--a.com', "o'brien@example.ie",
    'a@b@example.com', 'ann@', '@example.com', 'ann example.com', 'ann@example..com', 'ann@[192.0.2.1]', 'a_b@ex_ample.com',
  ];

  it.each(cases)('%s: the fast path agrees with the full check', (cell) => {
    const fast = prefilter(cell);
    expect(fast.key).toBe(slowKey(cell));
  });

  it('blank, missing and malformed cells are told apart', () => {
    expect(prefilter('   ')).toEqual({ reason: 'blank' });
    // A row that ends before the email column has no cell at all.
    expect(prefilter(undefined)).toEqual({ reason: 'short_row' });
    expect(prefilter('nope')).toEqual({ reason: 'syntax' });
  });

  it('spellings of one mailbox share a key; a different local-part case does not', () => {
    expect(prefilter('ann@Example.COM').key).toBe(prefilter('ann@example.com').key);
    expect(prefilter('ANN@example.com').key).not.toBe(prefilter('ann@example.com').key);
  });
});
