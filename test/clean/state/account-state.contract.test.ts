// One contract for every store of an account's state: the data directory (SQLite and files) and Redis (a real
// redis-server on loopback). A new adapter is added to STORES and must pass the same suite.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountState, RunEnd, RunRecord, StateLocation } from '../../../src/clean/state/account-state.js';
import { openAccountDirectory, openAccountState } from '../../../src/clean/state/open-state.js';
import { atTime, type VerdictCache } from '../../../src/clean/state/verdict-cache.js';
import type { Verdict } from '../../../src/clean/verdict/verdict.js';
import { FakeClock } from '../../helpers/clock.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../../helpers/redis.js';
import { severalProcesses } from './several-processes.js';

interface Store {
  name: string;
  available: boolean;
  /** Where a fresh account's state lives: each call a new account, so tests never meet. */
  start(): Promise<() => StateLocation>;
  stop(): Promise<void>;
}

// A run's claims in a process of its own (built code: `npm test` builds first), which the test then kills.
const CLAIM_AND_HANG = `
const { openAccountState } = await import(${JSON.stringify(new URL('../../../dist/clean/state/open-state.js', import.meta.url).href)});
const claims = (await openAccountState(JSON.parse(process.env.MAILCLEAN_STATE))).claims();
await claims.start();
await claims.claim(['a@example.com', 'b@example.com']);
process.stdout.write('claimed\\n');
setInterval(() => {}, 60_000);
`;

const dirs: string[] = [];
let redis: RedisHandle | undefined;
let accounts = 0;
const STORES: Store[] = [
  {
    name: 'the data directory',
    available: true,
    start: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
      dirs.push(dataDir);
      return () => ({ dataDir, account: `account-${accounts++}` });
    },
    stop: async () => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  },
  {
    name: 'Redis',
    available: redisInstalled || redisRequired,
    start: async () => {
      redis = await startRedis();
      const dataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
      dirs.push(dataDir);
      return () => ({ dataDir, account: `account-${accounts++}`, sharedUrl: redis!.url });
    },
    stop: async () => {
      await redis?.stop();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  },
];
if (!redisInstalled) console.log(`test/clean/state/account-state.contract.test.ts: Redis ${REDIS_SKIP_NOTE}`);

const verdict = (key: string, checkedAt: string, status: Verdict['status'] = 'valid'): Verdict => ({
  key,
  status,
  valid: status === 'valid',
  disposable: false,
  validDomain: true,
  reason: status === 'valid' ? '' : 'rejected_email',
  checkedAt,
  serviceStatus: status === 'valid' ? 'deliverable' : 'undeliverable',
});

/** What the cache's lookup tells, each verdict as of its answer's time. */
async function lookedUp(cache: VerdictCache, keys: Iterable<string>, since: number): Promise<Map<string, Verdict>> {
  const found = new Map<string, Verdict>();
  const count = await cache.lookup(new Set(keys), since, (key, v, time) => found.set(key, atTime(v, time)));
  expect(count).toBe(found.size);
  return found;
}

const runRecord = (id: string, startedAt: string): RunRecord => ({
  id,
  list: 'list.csv',
  input: '/lists/list.csv',
  fingerprint: `fingerprint-of-${id}`,
  checker: 'service',
  startedAt,
  resumedAt: null,
  rows: 10,
  unique: 9,
  journaled: 0,
  host: hostname(),
  pid: process.pid,
  cwd: '/lists',
  args: ['/lists/list.csv', '--output', '/lists/out.csv'],
  end: null,
});

const runEnd = (): RunEnd => ({
  endedAt: new Date().toISOString(),
  outcome: 'success',
  exitCode: 0,
  spent: 9,
  statuses: { valid: 9, invalid: 1 },
  outputs: [{ path: '/lists/out.csv', role: 'output', rows: 10 }],
  allowanceLeft: 41,
  message: null,
});

describe.each(STORES.filter((s) => s.available))('the account state in $name', (store) => {
  let nextAccount: () => StateLocation;
  const opened: AccountState[] = [];
  const open = async (where: StateLocation) => {
    const state = await openAccountState(where);
    opened.push(state);
    return state;
  };
  beforeAll(async () => {
    nextAccount = await store.start();
  });
  afterAll(async () => {
    for (const state of opened.splice(0)) await state.close();
    await store.stop();
  });

  it('the cache answers by age (at once or one by one), counts, keeps the newer answer, clears by age, and is seen by the next run', async () => {
    const where = nextAccount();
    const first = await open(where);
    const cache = await first.cache();
    await cache.store([
      verdict('old@example.com', '2026-01-01T00:00:00.000Z'),
      verdict('new@example.com', '2026-11-01T00:00:00.000Z', 'invalid'),
    ]);
    await cache.store([verdict('old@example.com', '2026-02-01T00:00:00.000Z')]);
    expect(first.hasCache()).toBe(true);

    const next = await (await open(where)).cache();
    const found = await lookedUp(next, ['old@example.com', 'new@example.com', 'none@example.com'], 0);
    expect([...found.keys()].sort()).toEqual(['new@example.com', 'old@example.com']);
    expect(found.get('new@example.com')).toMatchObject({
      status: 'invalid',
      serviceStatus: 'undeliverable',
      checkedAt: '2026-11-01T00:00:00.000Z',
    });
    expect(found.get('old@example.com')?.checkedAt).toBe('2026-02-01T00:00:00.000Z');
    // Only answers given at or after `since`.
    const keys = function* () {
      yield* ['old@example.com', 'none@example.com', 'new@example.com'];
    };
    expect([...(await lookedUp(next, keys(), Date.parse('2026-06-01'))).keys()]).toEqual(['new@example.com']);
    // A stop before the read ends it: nothing more is told.
    const stop = AbortSignal.abort();
    expect(await next.lookup(new Set(keys()), 0, () => expect.unreachable(), stop)).toBe(0);
    expect(await next.stats()).toMatchObject({
      entries: 2,
      oldest: '2026-02-01T00:00:00.000Z',
      newest: '2026-11-01T00:00:00.000Z',
    });
    expect(await next.clear(Date.parse('2026-06-01'))).toBe(1);
    expect(await next.clear()).toBe(1);
    expect((await lookedUp(next, ['new@example.com'], 0)).size).toBe(0);
  });

  it('answers a list of many thousand addresses, asked in any order', async () => {
    const cache = await (await open(nextAccount())).cache();
    const at = '2026-11-01T00:00:00.000Z';
    const stored = Array.from({ length: 25_000 }, (_, i) => `many${i}@example.com`);
    for (let i = 0; i < stored.length; i += 1_000)
      await cache.store(stored.slice(i, i + 1_000).map((key) => verdict(key, at)));
    const asked = [...stored.filter((_, i) => i % 2 === 0).reverse(), 'missing@example.com'];
    const found = await lookedUp(cache, asked, 0);
    expect(found.size).toBe(12_500);
    expect(found.get('many24998@example.com')).toMatchObject({ status: 'valid', checkedAt: at });
  });

  it("one account's answers are not another's", async () => {
    const a = await open(nextAccount());
    const b = await open(nextAccount());
    await (await a.cache()).store([verdict('x@example.com', new Date().toISOString())]);
    expect((await lookedUp(await b.cache(), ['x@example.com'], 0)).size).toBe(0);
  });

  it('two runs of one account never let more than N sends start in any window', async () => {
    const where = nextAccount();
    const rate = { requests: 3, windowMs: 400 };
    const runs = [(await open(where)).limiter(rate), (await open(where)).limiter(rate)];
    const starts: number[] = [];
    await Promise.all(
      [...runs, ...runs].map(async (limiter) => {
        for (let i = 0; i < 4; i++) {
          const booking = await limiter.acquire();
          starts.push(Date.now());
          await limiter.release(booking);
        }
      }),
    );
    expect(starts).toHaveLength(16);
    starts.sort((x, y) => x - y);
    for (let i = 0; i + rate.requests < starts.length; i++)
      expect(starts[i + rate.requests]! - starts[i]!).toBeGreaterThanOrEqual(rate.windowMs);
    expect(runs[0]!.timeToSend(rate.requests + 1)).toBeGreaterThan(0);
  });

  it('a send that never reached a server gives its slot back: the next run books it at once', async () => {
    const where = nextAccount();
    const rate = { requests: 2, windowMs: 60_000 };
    const first = (await open(where)).limiter(rate);
    for (const booking of [await first.acquire(), await first.acquire()]) await first.release(booking, true);
    const next = (await open(where)).limiter(rate);
    expect(next.timeToSend(2)).toBe(0);
    const booked = [await next.acquire(), await next.acquire()];
    // At once: not a window's wait (a millisecond may pass between queueing and booking on a loaded machine).
    for (const booking of booked) expect(booking.waitedMs).toBeLessThan(1_000);
    // Sends that did reach the service hold their slots for the window.
    for (const booking of booked) await next.release(booking);
    expect(next.timeToSend(1)).toBeGreaterThan(50_000);
  });

  it('for an ETA, a send still in flight frees its slot a window after now, not after the request timeout', async () => {
    const where = nextAccount();
    const rate = { requests: 2, windowMs: 60_000 };
    const limiter = (await open(where)).limiter(rate);
    const inFlight = [await limiter.acquire(), await limiter.acquire()];
    // The limiters hold an unanswered send for the request timeout (30 s) too, in case its run was killed; an ETA
    // that counted it was 80% long (bench/eta.mjs).
    expect(limiter.timeToSend(1)).toBeGreaterThan(59_000);
    expect(limiter.timeToSend(1)).toBeLessThanOrEqual(61_000);
    for (const booking of inFlight) await limiter.release(booking);
  });

  it('a list has one journal per account, and the allowance news is kept for the next run', async () => {
    const where = nextAccount();
    const state = await open(where);
    expect(state.journalFile('list-a')).toBe((await open(where)).journalFile('list-a'));
    expect(state.journalFile('list-a')).not.toBe(state.journalFile('list-b'));
    expect(state.journalFile('list-a')).not.toBe((await open(nextAccount())).journalFile('list-a'));
    expect(state.knownAllowance()).toBeUndefined();
    state.rememberAllowance({ left: 42, limit: 50 }, 'refusal');
    expect((await open(where)).knownAllowance()).toMatchObject({ left: 42, limit: 50, source: 'refusal' });
  });

  it('counts what this machine spent in each month, and with a shared state what every runner spent', async () => {
    const clock = new FakeClock(Date.parse('2026-11-30T23:59:58.000Z'));
    const where = { ...nextAccount(), clock };
    const here = await open(where);
    await here.recordSpend(3);
    await (await open(where)).recordSpend(4);
    // Another machine: its own data directory, the same account (and, shared, the same store).
    const otherDataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
    dirs.push(otherDataDir);
    const elsewhere = await open({ ...where, dataDir: otherDataDir });
    await elsewhere.recordSpend(5);
    expect(await here.spentInMonth()).toEqual({
      month: '2026-11',
      thisMachine: 7,
      ...(here.shared ? { allRunners: 12 } : {}),
    });
    expect((await elsewhere.spentInMonth()).thisMachine).toBe(5);
    // The last second of the month passes: what is spent now is December's, and November's stays November's.
    clock.advance(2_000);
    await here.recordSpend(2);
    expect(await here.spentInMonth()).toEqual({
      month: '2026-12',
      thisMachine: 2,
      ...(here.shared ? { allRunners: 2 } : {}),
    });
  });

  it('claims: a second run gets only what is unclaimed, and what the first gives back', async () => {
    const where = nextAccount();
    const [first, second] = [(await open(where)).claims(), (await open(where)).claims()];
    await first.start();
    await second.start();
    expect(await first.claim(['a@example.com', 'b@example.com'])).toEqual({
      mine: ['a@example.com', 'b@example.com'],
      theirs: [],
    });
    expect(await second.claim(['b@example.com', 'c@example.com'])).toEqual({
      mine: ['c@example.com'],
      theirs: ['b@example.com'],
    });
    // The first is alive: nothing of its is taken over.
    expect(await second.takeOverFromGone(['a@example.com', 'b@example.com'])).toEqual([]);
    await first.release();
    expect(await second.claim(['a@example.com', 'b@example.com'])).toEqual({
      mine: ['a@example.com', 'b@example.com'],
      theirs: [],
    });
    await second.release();
  });

  it('claims of a process on this machine that was killed are taken over at once', async () => {
    const where = nextAccount();
    const child = spawn(process.execPath, ['--input-type=module', '-e', CLAIM_AND_HANG], {
      env: { ...process.env, MAILCLEAN_STATE: JSON.stringify(where) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [said] = await once(child.stdout, 'data');
    expect(String(said)).toBe('claimed\n');
    child.kill('SIGKILL');
    await once(child, 'exit');
    const next = (await open(where)).claims();
    await next.start();
    expect(await next.claim(['a@example.com', 'b@example.com'])).toEqual({
      mine: [],
      theirs: ['a@example.com', 'b@example.com'],
    });
    // Without asking the process, Redis would hold them until the runner's sign of life ran out (15 s).
    expect(await next.takeOverFromGone(['a@example.com', 'b@example.com'])).toEqual(['a@example.com', 'b@example.com']);
    await next.release();
  });

  it('the account directory: an identity keeps the account it was first seen with; shared, every machine sees it', async () => {
    const where = nextAccount();
    const id = (name: string) => `${where.account}-${name}`;
    const here = await openAccountDirectory(where);
    await here.remember([id('token'), id('email')], 'first');
    expect(await here.find([id('unknown'), id('email')])).toBe('first');
    await here.remember([id('email'), id('user')], 'second');
    expect(await here.find([id('email')])).toBe('first');
    expect(await here.find([id('user')])).toBe('second');
    here.close();
    const otherDataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
    dirs.push(otherDataDir);
    const elsewhere = await openAccountDirectory({ ...where, dataDir: otherDataDir });
    expect(await elsewhere.find([id('token')])).toBe(where.sharedUrl ? 'first' : undefined);
    elsewhere.close();
  });

  it('the run history: a start, then its end, newest first; whose process runs; forgotten on demand; shared, every machine sees it', async () => {
    const where = nextAccount();
    const here = await open(where);
    const first = runRecord('run00001', '2026-01-01T00:00:00.000Z');
    const second = runRecord('run00002', '2026-02-01T00:00:00.000Z');
    await here.recordRun(first);
    await here.recordRun(second);
    const ended = { ...first, end: runEnd() };
    await here.recordRun(ended);
    // A run whose process is gone, as after a SIGKILL.
    const killed = {
      ...runRecord('run00003', '2025-12-01T00:00:00.000Z'),
      pid: spawnSync(process.execPath, ['-e', '']).pid!,
    };
    await here.recordRun(killed);
    // Another machine's, which gave no sign of life.
    const elsewhere = { ...runRecord('run00004', '2025-11-01T00:00:00.000Z'), host: 'another-machine.example' };
    await here.recordRun(elsewhere);

    const again = await open(where);
    expect(await again.runs()).toEqual([
      { ...second, live: true },
      { ...ended, live: false },
      { ...killed, live: false },
      { ...elsewhere, live: false },
    ]);
    expect(await (await open(nextAccount())).runs()).toEqual([]);

    expect(await again.forgetRuns(['run00001', 'run00003', 'no-such-run'])).toBe(2);
    expect((await here.runs()).map((run) => run.id)).toEqual(['run00002', 'run00004']);
    await here.recordRun({ ...second, end: runEnd() });
    expect((await here.runs())[0]).toMatchObject({ id: 'run00002', live: false, end: { outcome: 'success' } });

    const otherDataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
    dirs.push(otherDataDir);
    const otherMachine = await open({ ...where, dataDir: otherDataDir });
    expect((await otherMachine.runs()).map((run) => run.id)).toEqual(here.shared ? ['run00002', 'run00004'] : []);
  });

  it("a run's addresses in flight: the last count told, on this machine only, forgotten with the run's end or the run", async () => {
    const where = nextAccount();
    const here = await open(where);
    const run = runRecord('run00005', '2026-03-01T00:00:00.000Z');
    await here.recordRun(run);
    expect(here.inFlight(run.id)).toBeUndefined();
    here.recordInFlight(run.id, 100);
    here.recordInFlight(run.id, 1_050);
    // A shorter count after a longer one leaves nothing of it.
    here.recordInFlight(run.id, 50);
    // Read as `runs` reads it: another opening of the state, as after the run's process was killed.
    const again = await open(where);
    expect(again.inFlight(run.id)).toBe(50);
    expect((await open(nextAccount())).inFlight(run.id)).toBeUndefined();
    const otherDataDir = mkdtempSync(join(tmpdir(), 'mailclean-state-'));
    dirs.push(otherDataDir);
    expect((await open({ ...where, dataDir: otherDataDir })).inFlight(run.id)).toBeUndefined();

    await here.recordRun({ ...run, end: runEnd() });
    expect(again.inFlight(run.id)).toBeUndefined();
    const other = runRecord('run00006', '2026-03-02T00:00:00.000Z');
    await here.recordRun(other);
    here.recordInFlight(other.id, 0);
    expect(again.inFlight(other.id)).toBe(0);
    expect(await again.forgetRuns([other.id])).toBe(1);
    expect(here.inFlight(other.id)).toBeUndefined();
  });

  it('several processes at once: overlapping lists pay exactly their union, every run exits 0, the cache keeps every answer', {
    timeout: 120_000,
  }, async () => {
    const where = nextAccount();
    const union = await severalProcesses(where, { processes: 4, rows: 3_000, step: 1_000 });
    expect(union.exits, union.stderr).toEqual([0, 0, 0, 0]);
    expect(union.charged, union.stderr).toBe(union.addresses);
    expect(union.stderr).not.toMatch(/database is locked|could not be kept/);
    const cache = await (await open(where)).cache();
    expect((await cache.stats()).entries).toBe(union.addresses);
  });
});
