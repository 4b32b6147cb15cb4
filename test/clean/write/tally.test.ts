import { describe, expect, it } from 'vitest';
import { cellVerdict, uncheckedVerdict, type Verdict } from '../../../src/clean/verdict/verdict.js';
import { Tally } from '../../../src/clean/write/tally.js';

const engine = (reason: string, extra: Partial<Verdict> = {}): Verdict => ({
  key: '',
  status: reason === '' ? 'valid' : 'risky',
  valid: reason === '',
  disposable: reason === 'disposable',
  validDomain: true,
  reason,
  checkedAt: '2026-11-26T00:00:00.000Z',
  free: false,
  role: reason === 'role',
  decidedBy: 'local',
  ...extra,
});

/** A service's answer: one object per address, no word on role (the key is asked). */
const service = (key: string, status: string): Verdict => ({
  key,
  status,
  valid: status === 'valid',
  disposable: false,
  validDomain: true,
  reason: status === 'valid' ? '' : 'rejected',
  checkedAt: '2026-11-26T00:00:00.000Z',
  serviceStatus: status === 'valid' ? 'deliverable' : 'undeliverable',
});

describe('Tally', () => {
  it('counts shared verdicts once each and a service’s one-per-address answers row by row, to the same totals', () => {
    const tally = new Tally();
    const valid = engine('');
    const role = engine('role');
    const disposable = engine('disposable');
    const typo = engine('possible_typo', { suggestion: 'ann@gmail.com' });
    let rows = 0;
    const add = (verdict: Verdict, key: string, cell = key) => {
      tally.add(verdict, cell, key);
      rows++;
    };
    for (let i = 0; i < 3000; i++) add(valid, `p${i}@a.example`);
    for (let i = 0; i < 20; i++) add(role, `info${i}@a.example`);
    add(disposable, 'x@mailinator.com');
    // A role address whose verdict gives another reason: the engine's role flag still counts.
    add(engine('disposable', { role: true }), 'info@mailinator.com');
    add(typo, 'ann@gmial.com');
    add(cellVerdict('', 'syntax'), '', 'not an address');
    add(cellVerdict('', 'blank'), '', '');
    // More distinct verdicts than are counted by object (4,096): the counts are settled and it starts again.
    for (let i = 0; i < 10_000; i++)
      add(service(`s${i}@b.example`, i % 5 === 0 ? 'invalid' : 'valid'), `s${i}@b.example`);
    for (let i = 0; i < 7; i++) add(service(`admin@c${i}.example`, 'valid'), `admin@c${i}.example`);
    add(uncheckedVerdict('u@d.example'), 'u@d.example');
    expect(tally.counts().rows).toBe(rows);
    expect(Object.fromEntries(tally.counts().byStatus)).toEqual({
      valid: 3000 + 8000 + 7,
      risky: 23,
      invalid: 2002,
      unchecked: 1,
    });
    expect(Object.fromEntries(tally.counts().byReason)).toEqual({
      role: 20,
      disposable: 2,
      possible_typo: 1,
      syntax: 1,
      blank: 1,
      rejected: 2000,
    });
    expect(Object.fromEntries(tally.counts().byServiceStatus)).toEqual({ deliverable: 8007, undeliverable: 2000 });
    expect(tally.counts().disposable).toBe(2);
    // The engine's role verdicts (and flag), and the service's answers for admin@ (read from the key).
    expect(tally.counts().role).toBe(28);
    expect(Object.fromEntries(tally.suggestions)).toEqual({ 'gmial.com → gmail.com': 1 });
    expect(tally.examples.get('invalid')).toEqual([
      'not an address',
      's0@b.example',
      's5@b.example',
      's10@b.example',
      's15@b.example',
    ]);
    expect(tally.topDomains(2)).toEqual([
      { domain: 'b.example', rows: 10_000, statuses: { valid: 8000, invalid: 2000 } },
      { domain: 'a.example', rows: 3020, statuses: { valid: 3000, risky: 20 } },
    ]);
    // Read again after more rows: the counts go on.
    tally.add(role, 'info@a.example', 'info@a.example');
    expect(tally.counts().rows).toBe(rows + 1);
    expect(tally.counts().role).toBe(29);
  });

  it('counts the rows of thousands of domains by status, each domain’s statuses in the order they first came', () => {
    const tally = new Tally();
    const statuses = ['valid', 'invalid', 'risky', 'unknown', 'unchecked', 'catch_all', 'spamtrap'];
    const verdicts = statuses.map((status) => service('', status));
    // Domain d has d % 50 + 1 rows, their statuses from d % 7 on: more domains and statuses than first made room for.
    for (let d = 0; d < 3000; d++)
      for (let r = 0; r <= d % 50; r++) tally.add(verdicts[(d + r) % 7]!, `r${r}@d${d}.example`, `r${r}@d${d}.example`);
    const top = tally.topDomains(3);
    expect(top.map((mix) => mix.domain)).toEqual(['d1049.example', 'd1099.example', 'd1149.example']);
    const first = top[0]!;
    expect(first.rows).toBe(50);
    // d1049 starts at status 1049 % 7 = 6 and goes round: spamtrap first, then valid, invalid...
    expect(Object.keys(first.statuses)).toEqual([...statuses.slice(6), ...statuses.slice(0, 6)]);
    expect(Object.values(first.statuses)).toEqual([8, 7, 7, 7, 7, 7, 7]);
    expect(tally.counts().rows).toBe(Array.from({ length: 3000 }, (_, d) => (d % 50) + 1).reduce((a, b) => a + b));
  });

  it('counts no domains when told not to, and everything else as it would', () => {
    const typo = { ...service('x@gmial.com', 'invalid'), suggestion: 'x@gmail.com' };
    const rows: Array<[Verdict, string]> = [
      [service('', 'valid'), 'a@one.example'],
      [service('', 'risky'), 'info@two.example'],
      [typo, 'x@gmial.com'],
    ];
    const [counted, not] = [new Tally(), new Tally({ domains: false })];
    for (const tally of [counted, not]) for (const [verdict, key] of rows) tally.add(verdict, key, key);
    expect(counted.topDomains(5)).toHaveLength(3);
    expect(not.topDomains(5)).toEqual([]);
    for (const read of [
      (t: Tally) => [t.counts().rows, t.counts().role, t.counts().disposable],
      (t: Tally) => [...t.counts().byStatus],
      (t: Tally) => [...t.suggestions],
      (t: Tally) => [...t.examples],
    ])
      expect(read(not)).toEqual(read(counted));
    expect([...not.suggestions]).toEqual([['gmial.com → gmail.com', 1]]);
  });
});
