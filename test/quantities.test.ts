// Counts and orderings written without ICU (whose first use costs every run's start): the same text as en-US.
import { describe, expect, it } from 'vitest';
import { byCodeUnits, formatCount, quantity } from '../src/quantities.js';

describe('formatCount', () => {
  it('writes whole numbers as toLocaleString("en-US") does, negative and huge ones included', () => {
    const samples = [
      0,
      1,
      12,
      999,
      1_000,
      1_001,
      12_345,
      999_999,
      1_000_000,
      9_675_701,
      2 ** 53 - 1,
      -1,
      -999,
      -1_000,
      -1_234_567,
    ];
    for (let n = 1; n < 1e15; n = n * 7 + 3) samples.push(n);
    for (const n of samples) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves fractions to toLocaleString', () => {
    expect(formatCount(1234.5678)).toBe('1,234.568');
  });

  it('is what quantity() counts with', () => {
    expect(quantity(1, 'row')).toBe('1 row');
    expect(quantity(10_000, 'address', 'addresses')).toBe('10,000 addresses');
  });
});

describe('byCodeUnits', () => {
  it("orders names by their characters' codes; equal names compare 0", () => {
    expect(['no_mx', 'disposable', 'b.com', 'a-b.com', 'a.b.com', 'no_domain'].sort(byCodeUnits)).toEqual([
      'a-b.com',
      'a.b.com',
      'b.com',
      'disposable',
      'no_domain',
      'no_mx',
    ]);
    expect(byCodeUnits('same', 'same')).toBe(0);
  });
});
