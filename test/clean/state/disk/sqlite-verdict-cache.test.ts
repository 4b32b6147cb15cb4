// The SQLite verdict cache as a store: lookups over several statement batches, answers by age, both ways of
// counting, and what survives closing the file.
import diagnostics from 'node:diagnostics_channel';
import {
  existsSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeysExcept } from '../../../../src/clean/scan/keys-except.js';
import { UniqueKeys } from '../../../../src/clean/scan/spill/unique-keys.js';
import { SpooledReader } from '../../../../src/clean/state/disk/cache-early-read.js';
import { type AnswerPage, pagesHere } from '../../../../src/clean/state/disk/cache-pages.js';
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

/**
 * The files this process holds open whose name (once removed: a deleted file's) is an early read's spooled answers,
 * each with its size: seen through /proc, where there is one (Linux).
 */
function spooledAnswers(): number[] | undefined {
  if (!existsSync('/proc/self/fd')) return undefined;
  const sizes: number[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target = '';
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
      if (/\/answers-[^/]+\.spool/.test(target)) sizes.push(fstatSync(Number(fd)).size);
    } catch {
      /* closed meanwhile (the directory's own descriptor) */
    }
  }
  return sizes;
}

/** Counts the worker threads this process starts until `end()`, and how many of them have ended (`exited`). */
function workersStarted(): { end(): number; readonly exited: number } {
  let started = 0;
  let exited = 0;
  const count = (message: unknown) => {
    started++;
    (message as { worker: Worker }).worker.once('exit', () => exited++);
  };
  diagnostics.subscribe('worker_threads', count);
  return {
    end() {
      diagnostics.unsubscribe('worker_threads', count);
      return started;
    },
    get exited() {
      return exited;
    },
  };
}

describe('the SQLite verdict cache', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-cache-'));
    path = join(dir, 'cache', 'account.sqlite');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // 1,234 is two full batches of 500 and a part batch.
  const stored = Array.from({ length: 1_234 }, (_, i) => verdict(i));

  it('answers every stored address over several batches, with its flags and time, and nothing else', async () => {
    const cache = new SqliteVerdictCache(path);
    await cache.store(stored);
    const asked = [...stored.map((v) => v.key), 'never@example.com', 'other@example.org'];
    const found = await cache.lookup(asked, 0);
    expect(found.size).toBe(1_234);
    // Each with its address's kind, which the service does not say: kept so that a re-run need not ask for it.
    for (const v of stored) expect(found.get(v.key), v.key).toEqual({ ...v, key: '', free: false, role: false });
    expect(found.has('never@example.com')).toBe(false);
    await cache.close();
  });

  it('answers only what is recent enough; counts alike by lookup (few keys) and by a full pass (many)', async () => {
    const cache = new SqliteVerdictCache(path);
    await cache.store(stored);
    const since = Date.parse('2026-06-01T00:00:00.000Z');
    const recent = stored.filter((v) => v.checkedAt === NEW).map((v) => v.key);
    expect(
      [
        ...(
          await cache.lookup(
            stored.map((v) => v.key),
            since,
          )
        ).keys(),
      ].sort(),
    ).toEqual([...recent].sort());
    // Under a third of the cache: counted by lookups; the whole list and more: by one pass over the file.
    const few = new Set(stored.slice(0, 300).map((v) => v.key));
    const many = new Set([
      ...stored.map((v) => v.key),
      ...Array.from({ length: 2_000 }, (_, i) => `absent${i}@example.com`),
    ]);
    expect(await cache.count(few, since)).toBe(stored.slice(0, 300).filter((v) => v.checkedAt === NEW).length);
    expect(await cache.count(many, since)).toBe(recent.length);
    // Either way, each address counted is told, once.
    for (const keys of [few, many]) {
      const told: string[] = [];
      const counted = await cache.count(keys, since, (key) => told.push(key));
      expect(told.sort()).toEqual(recent.filter((key) => keys.has(key)).sort());
      expect(counted).toBe(told.length);
    }
    expect(await cache.count(many, 0)).toBe(1_234);
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
    expect((await again.lookup(['user3@example.com'], 0)).get('user3@example.com')).toMatchObject({
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

  // Pages of 8,000 answers, each matched as it comes: more than one page, some old. A cache of 50,000 answers or more
  // is read by a worker thread; a smaller one in this thread, as a worker's start would cost more than its reading.
  it.each([
    [54_321, 'a worker thread'],
    [12_345, 'this thread'],
  ])(
    'answers a list that is most of a cache of %i in one pass read by %s, as lookups answer a few',
    async (size, by) => {
      const cache = new SqliteVerdictCache(path);
      const many = Array.from({ length: size }, (_, i) => verdict(i));
      await cache.store(many);
      const since = Date.parse('2026-06-01T00:00:00.000Z');
      const keys = new UniqueKeys({ budget: 0, spillDir: join(dir, 'spool') });
      const listed = [...many.map((v) => v.key), 'never@example.com'];
      for (const key of listed) keys.add(key);
      const expected = new Map(
        many.filter((v) => v.checkedAt === NEW).map((v) => [v.key, { ...v, key: '', free: false, role: false }]),
      );
      // The list's own keys (found many at once), a Set (one at a time), and a few by lookups: the same answers.
      for (const asked of [new KeysExcept(keys), new Set(listed), listed.slice(0, 100)]) {
        const found = new Map<string, Verdict>();
        const workers = workersStarted();
        const count = await cache.lookupEach(asked, since, (key, v, time) => found.set(key, atTime(v, time)));
        expect(workers.end()).toBe(Array.isArray(asked) || by === 'this thread' ? 0 : 1);
        const want = [...expected].filter(([key]) => (Array.isArray(asked) ? asked.includes(key) : true));
        expect(count).toBe(want.length);
        expect(new Map([...found].sort())).toEqual(new Map(want.sort()));
      }
      // Answers of one batch alike share one verdict object.
      const found = await cache.lookup(new Set(listed), 0);
      expect(found.get('user1@example.com')).toBe(found.get('user2@example.com'));
      keys.close();
      await cache.close();
    },
  );

  // A copy of a list answered before: the run tells the cache the list's size before scanning it, and a cache its
  // size could be a good part of begins reading in a worker then (readAhead).
  it('begins a pass before the list is known: the same answers, none older than the lookup asks; ended if unused', async () => {
    // Long addresses: the file is over 50,000 answers' worth (about 57 bytes each), as a cache read by a worker is.
    const many = Array.from({ length: 60_000 }, (_, i) => ({ ...verdict(i), key: `someone.at.${i}@example.com` }));
    const filled = new SqliteVerdictCache(path);
    await filled.store(many);
    await filled.close();
    const keys = new UniqueKeys({ budget: 1 << 30, spillDir: join(dir, 'spool') });
    for (const v of many) keys.add(v.key);
    const listBytes = 20 * 2 ** 20;
    // Begun with every answer, asked for the recent ones: those from January are left out, whether the list finds
    // its addresses by their bytes (its own keys) or one at a time (a Set).
    const since = Date.parse('2026-06-01T00:00:00.000Z');
    const recent = many.filter((v) => v.checkedAt === NEW);
    const spillDir = join(dir, 'spill');
    for (const asked of [new KeysExcept(keys), new Set(many.map((v) => v.key))]) {
      const cache = new SqliteVerdictCache(path);
      const workers = workersStarted();
      cache.readAhead(0, listBytes, spillDir);
      // While the list would be scanned, the worker reads the whole cache into a file removed from its directory at
      // once (60,000 answers, 20 bytes each and their addresses, 24-28 bytes), and ends before the pass.
      const spooled = spooledAnswers();
      if (spooled)
        await expect.poll(() => spooledAnswers()?.[0] ?? 0, { timeout: 20_000 }).toBeGreaterThan(60_000 * 44);
      await expect.poll(() => workers.exited, { timeout: 20_000 }).toBe(1);
      expect(readdirSync(spillDir)).toEqual([]);
      const found = new Map<string, number>();
      const count = await cache.lookupEach(asked, since, (key, _v, time) => found.set(key, time ?? 0));
      expect(count).toBe(recent.length);
      expect([...found.keys()].sort()).toEqual(recent.map((v) => v.key).sort());
      expect(Math.min(...found.values())).toBe(Date.parse(NEW));
      // The pass over, the file is closed.
      if (spooled) expect(spooledAnswers()).toEqual([]);
      expect(workers.end()).toBe(1);
      await cache.close();
    }
    // Begun, then not wanted (a list of a few: looked up, not passed; or a run that ends first): the worker ends.
    for (const lookup of [true, false]) {
      const again = new SqliteVerdictCache(path);
      const started = workersStarted();
      again.readAhead(0, listBytes, spillDir);
      if (lookup) {
        expect(await again.lookupEach(new Set(['someone.at.3@example.com']), 0, () => {})).toBe(1);
        expect(started.exited).toBe(1);
      }
      await again.close();
      expect([started.end(), started.exited]).toEqual([1, 1]);
      expect(spooledAnswers() ?? []).toEqual([]);
    }
    // No file can be made where it would go (a file in the directory's place): no early read; the lookup reads.
    const blocked = join(dir, 'not-a-directory');
    writeFileSync(blocked, '');
    const unread = new SqliteVerdictCache(path);
    const none = workersStarted();
    unread.readAhead(0, listBytes, blocked);
    expect(none.end()).toBe(0);
    expect(await unread.lookupEach(new KeysExcept(keys), since, () => {})).toBe(recent.length);
    await unread.close();
    // Not begun where a pass is unlikely: a list far smaller than the cache, or larger than the early pages are for.
    const not = workersStarted();
    const small = new SqliteVerdictCache(path);
    small.readAhead(0, 100_000, spillDir);
    small.readAhead(0, 2 ** 30, spillDir);
    await small.close();
    expect(not.end()).toBe(0);
    keys.close();
  });

  it("hands the early read's answers over by when they were given, not by address", async () => {
    // Answered in an order unrelated to their addresses' (a list's own), a second apart: 20,000 of them.
    const n = 20_000;
    const T = Date.parse(NEW);
    const many = Array.from({ length: n }, (_, i) => ({
      ...verdict(i),
      checkedAt: new Date(T + ((i * 7_919) % n) * 1_000).toISOString(),
    }));
    const filled = new SqliteVerdictCache(path);
    await filled.store(many);
    await filled.close();
    const file = join(dir, 'answers.spool');
    const reader = new SpooledReader({ path, since: 0, size: 8_000 }, { fd: openSync(file, 'w+'), path: file });
    const read: Array<{ key: string; time: number }> = [];
    for await (const page of reader.pages())
      for (let i = 0; i < page.count; i++)
        read.push({
          key: Buffer.from(page.bytes.subarray(page.starts[i], page.starts[i + 1])).toString(),
          time: page.times[i] as number,
        });
    expect(read.map((a) => a.key).sort()).toEqual(many.map((v) => v.key).sort());
    // Each answer comes within about a bucket (n / 64) of its place by time; in address order it would be n / 3.
    const displaced = read.reduce((sum, a, at) => sum + Math.abs((a.time - T) / 1_000 - at), 0) / n;
    expect(displaced).toBeLessThan(n / 64);
    expect(existsSync(file)).toBe(false);
    // Stopped while the worker still reads (a Ctrl-C during the scan): no page, the worker ended, the file gone.
    const stop = new AbortController();
    const again = new SpooledReader({ path, since: 0, size: 8_000 }, { fd: openSync(file, 'w+'), path: file });
    stop.abort();
    const pages: AnswerPage[] = [];
    for await (const page of again.pages(stop.signal)) pages.push(page);
    expect(pages).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it("reads on from the cache itself where the early read's file takes no more (a full disk)", async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ ...verdict(i), checkedAt: NEW }));
    const filled = new SqliteVerdictCache(path);
    await filled.store(many);
    await filled.close();
    const keysOf = (page: AnswerPage) =>
      Array.from({ length: page.count }, (_, i) =>
        Buffer.from(page.bytes.subarray(page.starts[i], page.starts[i + 1])).toString(),
      );
    // A file that takes nothing (opened for reading only): the worker says so at its first page, and ends.
    const file = join(dir, 'answers-read-only.spool');
    writeFileSync(file, '');
    const reader = new SpooledReader({ path, since: 0, size: 8_000 }, { fd: openSync(file, 'r'), path: file });
    const read: string[] = [];
    for await (const page of reader.pages()) read.push(...keysOf(page));
    expect(read).toEqual(many.map((v) => v.key).sort());
    expect(existsSync(file)).toBe(false);
    // Where the file stopped after some pages, the reader goes on after their last key.
    const after = read[12_345] as string;
    const here = pagesHere({ path, since: 0, size: 8_000, after });
    const rest: string[] = [];
    for (let page = here.next(null); page !== null; page = here.next(page)) rest.push(...keysOf(page));
    expect(rest).toEqual(read.slice(12_346));
  });

  it('reads nothing from an empty cache: no pass, no worker thread', async () => {
    const cache = new SqliteVerdictCache(path);
    const keys = new UniqueKeys({ budget: 1 << 30, spillDir: join(dir, 'spool') });
    for (const v of stored) keys.add(v.key);
    const workers = workersStarted();
    expect(await cache.lookupEach(new KeysExcept(keys), 0, () => expect.unreachable())).toBe(0);
    expect(workers.end()).toBe(0);
    await cache.store(stored.slice(0, 1));
    expect(await cache.lookupEach(new KeysExcept(keys), 0, () => {})).toBe(1);
    keys.close();
    await cache.close();
  });

  it('lets the event loop run between pages and batches; a stop ends the read there, with what it found', async () => {
    const cache = new SqliteVerdictCache(path);
    // More than a page of the count's pass (50,000 addresses), all recent.
    const all = Array.from({ length: 50_001 }, (_, i) => ({ ...verdict(i), checkedAt: NEW }));
    await cache.store(all);
    const keys = new UniqueKeys({ budget: 1 << 30, spillDir: join(dir, 'spool') });
    for (const v of all) keys.add(v.key);
    const few = all.slice(0, 1_000).map((v) => v.key);
    type Read = (found: () => void, stop?: AbortSignal) => Promise<number>;
    const reads: [string, Read, number][] = [
      ['the pass for answers', (found, stop) => cache.lookupEach(new KeysExcept(keys), 0, found, stop), 8_000],
      ['the pass for a count', (found, stop) => cache.count(new KeysExcept(keys), 0, found, stop), 50_000],
      ['lookups', (found, stop) => cache.lookupEach(few, 0, found, stop), 500],
    ];
    for (const [name, read, page] of reads) {
      // Whole: a callback queued before the read runs before the read ends.
      let turned = false;
      let toldAfterTurn = false;
      setImmediate(() => {
        turned = true;
      });
      const whole = await read(() => {
        toldAfterTurn ||= turned;
      });
      expect(toldAfterTurn, name).toBe(true);
      // Stopped as its first answer is told: it ends with that page or batch, and says how many it found.
      const stop = new AbortController();
      let told = 0;
      const stopped = await read(() => {
        told++;
        stop.abort();
      }, stop.signal);
      expect([stopped, told], name).toEqual([page, page]);
      expect(whole, name).toBeGreaterThan(page);
    }
    keys.close();
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
    const found = await again.lookup(new Set(['info@gmail.com']), 0);
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
    expect((await again.lookup(['info@gmail.com'], 0)).get('info@gmail.com')).toMatchObject({ free: true, role: true });
    await again.close();
  });
});
