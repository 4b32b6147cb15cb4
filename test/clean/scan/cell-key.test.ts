import { describe, expect, it } from 'vitest';
import { keyOfCell } from '../../../src/clean/scan/cell-key.js';
import { checkSyntax, dedupeKey } from '../../../src/verify/syntax.js';

/** What the full RFC check says the key is (or that there is none). */
function slowKey(cell: string): string | undefined {
  const r = checkSyntax(cell.trim());
  return r.ok ? dedupeKey(r.local, r.domain) : undefined;
}

describe('keyOfCell', () => {
  const cases = [
    'ann@example.com',
    ' ann@example.com ',
    'Ann.Lee+tag@example.co.uk',
    'ann@EXAMPLE.com',
    'ann@example.COM',
    'a..b@example.com',
    '.a@example.com',
    'a.@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@example.c',
    'a@example.123',
    'a@localhost',
    `${'x'.repeat(64)}@example.com`,
    `${'x'.repeat(65)}@example.com`,
    `a@${'l'.repeat(63)}.com`,
    `a@${'l'.repeat(64)}.com`,
    `${'x'.repeat(64)}@${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`,
    '"quoted local"@example.com',
    'zoë@example.com',
    'ann@bücher.de',
    'ann@xn--bcher-kva.de',
    'a@xn--a.com',
    "o'brien@example.ie",
    'a@b@example.com',
    'ann@',
    '@example.com',
    'ann example.com',
    'ann@example..com',
    'ann@[192.0.2.1]',
    'a_b@ex_ample.com',
  ];

  it.each(cases)('%s: the fast path agrees with the full check', (cell) => {
    const fast = keyOfCell(cell);
    expect(fast.key).toBe(slowKey(cell));
  });

  it('blank, missing and malformed cells are told apart', () => {
    expect(keyOfCell('   ')).toEqual({ reason: 'blank' });
    // A row that ends before the email column has no cell at all.
    expect(keyOfCell(undefined)).toEqual({ reason: 'short_row' });
    expect(keyOfCell('nope')).toEqual({ reason: 'syntax' });
  });

  it('spellings of one mailbox share a key, the case of the local part too; caseSensitive keeps that apart', () => {
    expect(keyOfCell('ann@Example.COM').key).toBe('ann@example.com');
    expect(keyOfCell('ANN@example.com').key).toBe('ann@example.com');
    expect(keyOfCell(' Anna.Nowak35@Example.Org ').key).toBe('anna.nowak35@example.org');
    expect(keyOfCell('Ada <ADA@Example.com>').key).toBe('ada@example.com');
    // Only A-Z is folded (as SQLite's lower() folds the cache's older keys): other letters stay as written.
    expect(keyOfCell('ÉMILE@example.com').key).toBe('Émile@example.com');
    expect(keyOfCell('ANN@example.com', true).key).toBe('ANN@example.com');
    expect(keyOfCell('ANN@Example.COM', true).key).toBe('ANN@example.com');
    expect(keyOfCell('ann@example.com', true).key).not.toBe(keyOfCell('ANN@example.com', true).key);
  });
});

describe('keyOfCell: an address inside the cell', () => {
  const inside: Array<[string, string, string]> = [
    ['Ada Lovelace <ada@example.com>', 'ada@example.com', 'ada@example.com'],
    ['"Lovelace, Ada" <ada@Example.COM>', 'ada@Example.COM', 'ada@example.com'],
    ['"a <b>" <ada@example.com>', 'ada@example.com', 'ada@example.com'],
    ['  <ada@example.com>  ', 'ada@example.com', 'ada@example.com'],
    ['mailto:ada@example.com', 'ada@example.com', 'ada@example.com'],
    ['MAILTO:ada@example.com?subject=Hello%20there&cc=bob@example.org', 'ada@example.com', 'ada@example.com'],
    ['mailto:ada%2Bnews@example.com', 'ada+news@example.com', 'ada+news@example.com'],
    ['mailto:not-one,ada@example.com', 'ada@example.com', 'ada@example.com'],
    // A broken escape is taken as written (% is allowed in a local part).
    ['mailto:%E0%A4%A@example.com', '%E0%A4%A@example.com', '%e0%a4%a@example.com'],
    ['Ada <mailto:ada@bücher.de>', 'ada@bücher.de', 'ada@xn--bcher-kva.de'],
    // Google Contacts: several values of one field; the first well-formed one is checked.
    ['ada@example.com ::: ada@work.example.org', 'ada@example.com', 'ada@example.com'],
    ['not-an-address ::: Ada <ada@work.example.org> ::: c@example.net', 'ada@work.example.org', 'ada@work.example.org'],
  ];

  it.each(inside)('%s: checks %s (key %s)', (cell, checked, key) => {
    expect(keyOfCell(cell)).toEqual({ key, checked });
    // Sent once with the same address written plainly.
    expect(keyOfCell(checked).key).toBe(key);
  });

  const refused = [
    'Ada <ada@example.com',
    'Ada ada@example.com',
    'Ada <not-an-address>',
    'Ada <>',
    'mailto:',
    'mailto:?subject=x',
    ':::',
    'a ::: b',
  ];
  it.each(refused)('%s: nothing inside is an address: syntax', (cell) => {
    expect(keyOfCell(cell)).toEqual({ reason: 'syntax' });
  });

  it('a cell that is an address itself is never looked into', () => {
    expect(keyOfCell('"a<b>"@example.com')).toEqual({ key: '"a<b>"@example.com' });
    expect(keyOfCell('ada@example.com')).toEqual({ key: 'ada@example.com' });
  });
});
