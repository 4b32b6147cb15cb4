// KeysExcept: the list's addresses but some, as the caches and the precheck see them (size, order).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeysExcept } from '../../../src/clean/scan/keys-except.js';
import { UniqueKeys } from '../../../src/clean/scan/spill/unique-keys.js';
import type { Verdict } from '../../../src/clean/verdict/verdict.js';
import { VerdictTable } from '../../../src/clean/verdict/verdict-table.js';

const verdict: Verdict = {
  key: '',
  status: 'valid',
  valid: true,
  disposable: false,
  validDomain: true,
  reason: '',
  checkedAt: '2026-11-26T10:00:00.000Z',
};

const spoolDir = mkdtempSync(join(tmpdir(), 'mailclean-keys-except-'));
afterAll(() => rmSync(spoolDir, { recursive: true, force: true }));

describe('KeysExcept', () => {
  it('leaves out the addresses answered already and those excluded later, once each, in the list order', () => {
    const keys = new UniqueKeys({ spoolDir, budget: 0 });
    const all = Array.from({ length: 20 }, (_, i) => `u${i}@example.com`);
    for (const key of all) keys.add(key);
    const answered = new VerdictTable(keys);
    answered.setKey('u3@example.com', verdict);
    answered.setKey('not@in.list', verdict);
    const rest = new KeysExcept(keys, answered);
    expect(rest.size).toBe(19);
    for (const key of ['u0@example.com', 'u7@example.com', 'u7@example.com', 'u3@example.com', 'not@in.list'])
      rest.exclude(key);
    const expected = all.filter((key) => !['u0@example.com', 'u3@example.com', 'u7@example.com'].includes(key));
    expect([...rest]).toEqual(expected);
    expect(rest.size).toBe(expected.length);
    keys.close();
  });
});
