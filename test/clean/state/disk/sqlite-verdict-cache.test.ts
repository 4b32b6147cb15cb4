// The SQLite verdict cache as a store: lookups of few and many addresses (the list's own keys too), answers by
// age, the event loop's turns and a stop during a read, and what survives closing the file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeysExcept } from '../../../../src/clean/scan/keys-except.js';
import { UniqueKeys } from '../../../../src/clean/scan/spill/unique-keys.js';
import { SqliteVerdictCache } from '../../../../src/clean/state/disk/sqlite-verdict-cache.js';
import { atTime } from '../../../../src/clean/state/verdict-cache.js';
import type { Verdict } from '../../../../src/clean/verdict/verdict.js';

const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-11-01T00:00:00.000Z';

/** Address `i`: every third one answered long ago; a mix of statuses and unknown flags. */
function verdict(i: number): Verdict {
  const risky = i % 5 === 0;
  return {
    key: `user${i}@example.com`,
    status: risky ? 'risky' : 'valid',
    valid: !risky,
    disposable: risky ? true : i % 7 === 0 ? null : false,
    validDomain: i % 11 === 0 ? null : true,
    reason: risky ? 'disposable' : '',
    checkedAt: i % 3 === 0 ? OLD : NEW,
    // The service's own word comes back with the verdict, which says it in mailclean's.
    serviceStatus: risky ? 'disposable' : 'deliverable',
  };
}

/** What the lookup tells, each verdict as of its answer's time. */
async function lookedUp(
  cache: SqliteVerdictCache,
  keys: Iterable<string>,
  since: number,
): Promise<Map<string, Verdict>> {
  const found = new Map<string, Verdict>();
  const count = await cache.lookup(new Set(keys), since, (key, v, time) => found.set(key, atTime(v, time)));
  expect(count).toBe(found.size);
  return found;
}

describe('the SQLite verdict cache', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-cache-'));
    path = join(dir, 'cache', 'account.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const stored = Array.from({ length: 1_234 }, (_, i) => verdict(i));

  it('answers every stored address with its flags and time, and nothing else', async () => {
    const cache = new SqliteVerdictCache(path);
    await cache.store(stored);
    const asked = [...stored.map((v) => v.key), 'never@example.com', 'other@example.org'];
    const found = await lookedUp(cache, asked, 0);
    expect(found.size).toBe(1_234);
    // Each with its address's kind, which the service does not say: kept so that a re-run need not ask for it.
    for (const v of stored) expect(found.get(v.key), v.key).toEqual({ ...v, key: '', free: false, role: false });
    expect(found.has('never@example.com')).toBe(false);
    await cache.close();
  });

  it('answers only what is recent enough, for a few addresses and for a list that is more than the cache', async () => {
    const cache = new SqliteVerdictCache(path);
    await cache.store(stored);
    const since = Date.parse('2026-06-01T00:00:00.000Z');
    const recent = stored.filter((v) => v.checkedAt === NEW).map((v) => v.key);
    const few = stored.slice(0, 300).map((v) => v.key);
    const many = [...stored.map((v) => v.key), ...Array.from({ length: 2_000 }, (_, i) => `absent${i}@example.com`)];
    expect([...(await lookedUp(cache, few, since)).keys()].sort()).toEqual(
      recent.filter((k) => few.includes(k)).sort(),
    );
    expect([...(await lookedUp(cache, many, since)).keys()].sort()).toEqual([...recent].sort());
    expect((await lookedUp(cache, many, 0)).size).toBe(1_234);
    await cache.close();
  });

  it('finds a few addresses of a large cache by key and many by reading it, each way past a page of answers', async () => {
    const cache = new SqliteVerdictCache(path);
    const large = Array.from({ length: 120_000 }, (_, i) => verdict(i));
    for (let i = 0; i < large.length; i += 20_000) await cache.store(large.slice(i, i + 20_000));
    const since = Date.parse('2026-06-01T00:00:00.000Z');
    // Few (a claim's worth, and past a page of 5,000): found by key; many: the cache read once. Both answer alike.
    for (const asked of [large.slice(0, 6_000), large.filter((_, i) => i % 2 === 1)]) {
      const keys = [...asked.map((v) => v.key).reverse(), 'absent@example.com'];
      const found = await lookedUp(cache, keys, since);
      const recent = asked.filter((v) => v.checkedAt === NEW);
      expect(found.size).toBe(recent.length);
      for (const v of recent.slice(0, 50))
        expect(found.get(v.key), v.key).toMatchObject({ status: v.status, checkedAt: NEW });
    }
    await cache.close();
  });

  it('a newer answer replaces an older one; stats and clear by age; the file keeps what was committed', async () => {
    const first = new SqliteVerdictCache(path);
    await first.store(stored);
    await first.store([
      {
        ...verdict(3),
        status: 'invalid',
        valid: false,
        reason: 'rejected',
        checkedAt: NEW,
        serviceStatus: 'undeliverable',
      },
    ]);
    await first.close();

    const again = new SqliteVerdictCache(path);
    expect((await lookedUp(again, ['user3@example.com'], 0)).get('user3@example.com')).toMatchObject({
      status: 'invalid',
      reason: 'rejected',
      checkedAt: NEW,
    });
    const stats = await again.stats();
    expect(stats).toMatchObject({ entries: 1_234, oldest: OLD, newest: NEW });
    expect(stats.bytes).toBeGreaterThan(0);
    const old = stored.filter((v) => v.checkedAt === OLD && v.key !== 'user3@example.com').length;
    expect(await again.clear(Date.parse('2026-06-01T00:00:00.000Z'))).toBe(old);
    expect((await again.stats()).entries).toBe(1_234 - old);
    expect(await again.clear()).toBe(1_234 - old);
    expect(await again.stats()).toMatchObject({ entries: 0, oldest: null, newest: null });
    await again.close();
  });

  it("answers a list's own keys (most of the cache), the excluded left out; answers alike share a verdict", async () => {
    const cache = new SqliteVerdictCache(path);
    const many = Array.from({ length: 54_321 }, (_, i) => verdict(i));
    await cache.store(many);
    const since = Date.parse('2026-06-01T00:00:00.000Z');
    const keys = new UniqueKeys({ budget: 0, spoolDir: join(dir, 'spool') });
    for (const key of [...many.map((v) => v.key), 'never@example.com']) keys.add(key);
    const pending = new KeysExcept(keys);
    pending.exclude('user1@example.com');
    const expected = many.filter((v) => v.checkedAt === NEW && v.key !== 'user1@example.com');
    const shared = new Map<string, Verdict>();
    const count = await cache.lookup(pending, since, (key, v) => shared.set(key, v));
    expect(count).toBe(expected.length);
    expect([...shared.keys()].sort()).toEqual(expected.map((v) => v.key).sort());
    expect(shared.get('user2@example.com')).toBe(shared.get('user4@example.com'));
    keys.close();
    await cache.close();
  });

  it('reads nothing from an empty cache, and asks again from scratch each time', async () => {
    const cache = new SqliteVerdictCache(path);
    const keys = new Set(stored.map((v) => v.key));
    expect(await cache.lookup(keys, 0, () => expect.unreachable())).toBe(0);
    await cache.store(stored.slice(0, 1));
    expect(await cache.lookup(keys, 0, () => {})).toBe(1);
    expect(await cache.lookup(new Set([...keys].slice(1)), 0, () => expect.unreachable())).toBe(0);
    await cache.close();
  });

  it('lets the event loop run during a read; a stop ends it there, with what it found', async () => {
    const cache = new SqliteVerdictCache(path);
    const all = Array.from({ length: 50_001 }, (_, i) => ({ ...verdict(i), checkedAt: NEW }));
    await cache.store(all);
    const keys = new Set(all.map((v) => v.key));
    // Whole: a callback queued before the read runs before the read ends.
    let turned = false;
    let toldAfterTurn = false;
    setImmediate(() => {
      turned = true;
    });
    expect(
      await cache.lookup(keys, 0, () => {
        toldAfterTurn ||= turned;
      }),
    ).toBe(all.length);
    expect(toldAfterTurn).toBe(true);
    // Stopped as its first answer is told: it ends at its next turn, and says how many it found.
    const stop = new AbortController();
    let told = 0;
    const stopped = await cache.lookup(
      keys,
      0,
      () => {
        told++;
        stop.abort();
      },
      stop.signal,
    );
    expect(stopped).toBe(told);
    expect(stopped).toBeLessThan(all.length);
    await cache.close();
  });

  it('reads an answer stored before the kind was kept (no kind: the verdict table gives it from the key)', async () => {
    const cache = new SqliteVerdictCache(path);
    await cache.close();
    const db = new DatabaseSync(path);
    // valid true (2), disposable false (1 << 2), validDomain true (2 << 4): the three flags an older mailclean kept.
    db.prepare('INSERT INTO verdicts (key, status, flags, reason, at) VALUES (?, ?, ?, ?, ?)').run(
      'info@gmail.com',
      'deliverable',
      2 | (1 << 2) | (2 << 4),
      '',
      Date.parse(NEW),
    );
    db.close();
    const again = new SqliteVerdictCache(path);
    const found = await lookedUp(again, new Set(['info@gmail.com']), 0);
    expect(found.get('info@gmail.com')).toEqual({
      key: '',
      status: 'valid',
      serviceStatus: 'deliverable',
      valid: true,
      disposable: false,
      validDomain: true,
      reason: '',
      checkedAt: NEW,
    });
    await again.store([{ ...verdict(1), key: 'info@gmail.com' }]);
    expect((await lookedUp(again, ['info@gmail.com'], 0)).get('info@gmail.com')).toMatchObject({
      free: true,
      role: true,
    });
    await again.close();
  });
});
