// A run of the real CLI killed with SIGKILL mid-way: `runs` shows it unfinished, with what it paid so far and what it
// had in flight, and `runs resume ID` finishes it under the same ID without paying any address twice. The killed
// process is stopped at a door in front of the sandbox: one that lets a few requests through, then holds the next
// (nothing is in flight at the service when it dies, so what it paid is exactly what its journal kept), or one that
// lets the service answer the next and holds their answers (billed, never journaled: what `inFlight` tells). In
// both stores; the second in both answer shapes.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHome, useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../helpers/redis.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
if (!redisInstalled) console.log(`test/e2e/runs-kill.test.ts: ${REDIS_SKIP_NOTE} (the Redis store's case)`);

const STORES = [
  { store: 'disk', available: true },
  { store: 'redis', available: redisInstalled || redisRequired },
].filter((s) => s.available);
const CASES = STORES.flatMap(({ store }) => (['spec', 'alt'] as const).map((shape) => ({ store, shape })));

/** The real CLI cleaning a list of `unique` addresses (`env` names the door), in a process of its own to kill. */
function startClean(home: TestHome, env: Record<string, string>, concurrency: number, unique = 500) {
  const input = join(home.dir, 'list.csv');
  writeFileSync(input, `email\n${Array.from({ length: unique }, (_, i) => `k${i}@example.com`).join('\n')}\n`);
  const out = join(home.dir, 'out.csv');
  const child = spawn(process.execPath, [BIN, 'clean', input, '-o', out, '--concurrency', String(concurrency)], {
    env: { ...process.env, ...home.env(env), CI: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  return { child, out, unique, exited, stderr: () => stderr };
}

describe.each(STORES)('runs: a run killed mid-way ($store store)', ({ store }) => {
  const sandboxes = useSandboxes();
  const home = useHome();
  let redis: RedisHandle | undefined;
  beforeAll(async () => {
    if (store === 'redis') redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('is listed unfinished with what it paid, and `runs resume ID` finishes it: the same ID, no address paid twice', {
    timeout: 60_000,
  }, async () => {
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 1_000, windowMs: 1_000 } });
    await registered(home(), sandbox);
    const door = await startGate(sandbox.url, { passing: 3 });
    try {
      const env = { MAILCLEAN_CLEAN_URL: door.url, ...(redis ? { MAILCLEAN_REDIS_URL: redis.url } : {}) };
      const { child, out, unique, exited, stderr } = startClean(home(), env, 1);
      const runs = async () => JSON.parse((await home().run(['runs', '--json'], { env })).stdout);
      // Three batches answered and kept, the fourth held at the door: then it dies.
      const journaled = await eventually(async () => door.waiting() === 1 && (await runs())[0]?.spent === 150);
      expect(journaled, stderr()).toBe(true);
      const [running] = await runs();
      expect(running).toMatchObject({ status: 'running', pid: child.pid });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(await eventually(() => door.waiting() === 0)).toBe(true);
      expect(sandbox.stats().addressesCharged).toBe(150);

      // The batch held at the door was sent: the run cannot know the service never saw it, so it may have been billed.
      const [killed] = await runs();
      expect(killed).toMatchObject({
        id: running.id,
        status: 'unfinished',
        endedAt: null,
        outcome: null,
        spent: 150,
        inFlight: 50,
      });
      const table = (await home().run(['runs'], { env })).stdout.split('\n');
      expect(table[1]!.split('\t').slice(3, 7)).toEqual(['unfinished', String(unique), '150', '-']);
      const view = await home().run(['runs', 'view', killed.id], { env });
      expect(view.stdout).toMatch(/^Status\s+unfinished: stopped before its end/m);
      expect(view.stdout).toMatch(/^Spent\s+150 addresses so far$/m);
      expect(view.stdout).toMatch(/^In flight\s+50 addresses when it stopped \(may have been billed; not in Spent\)$/m);

      door.open();
      const resumed = await home().run(['runs', 'resume', killed.id], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('Resuming: 150 addresses already checked are not sent again.');
      expect(sandbox.stats().addressesCharged).toBe(unique);

      const after = await runs();
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({
        id: killed.id,
        startedAt: killed.startedAt,
        resumedAt: expect.any(String),
        status: 'ended',
        outcome: 'success',
        spent: unique,
        inFlight: 50,
        outputs: [{ path: out, role: 'output', rows: unique }],
      });
    } finally {
      await door.close();
    }
  });
});

describe.each(CASES)(
  'runs: a run killed with requests in flight ($store store, $shape answers)',
  ({ store, shape }) => {
    const sandboxes = useSandboxes();
    const home = useHome();
    let redis: RedisHandle | undefined;
    beforeAll(async () => {
      if (store === 'redis') redis = await startRedis();
    });
    afterAll(() => redis?.stop());

    it("`runs view` says what was in flight: the service's bill beyond the history's spend, kept when it is resumed", {
      timeout: 60_000,
    }, async () => {
      const sandbox = await sandboxes.start({ plan: 'unlimited', shape, rate: { requests: 1_000, windowMs: 1_000 } });
      await registered(home(), sandbox);
      const door = await startGate(sandbox.url, { passing: 3, hold: 'answers' });
      try {
        const env = { MAILCLEAN_CLEAN_URL: door.url, ...(redis ? { MAILCLEAN_REDIS_URL: redis.url } : {}) };
        const { child, unique, exited, stderr } = startClean(home(), env, 2);
        const runs = async () => JSON.parse((await home().run(['runs', '--json'], { env })).stdout);
        // Three batches answered and kept; the service answered two more, whose answers wait at the door: it dies.
        const held = await eventually(async () => door.waiting() === 2 && (await runs())[0]?.spent === 150);
        expect(held, stderr()).toBe(true);
        const [running] = await runs();
        expect(running).toMatchObject({ status: 'running', spent: 150, inFlight: 100 });
        const live = await home().run(['runs', 'view', running.id], { env });
        expect(live.stdout).toMatch(/^In flight\s+100 addresses \(sent, answers not journaled yet; not in Spent\)$/m);
        child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');
        const billed = sandbox.stats().addressesCharged;
        expect(billed).toBe(250);

        const [killed] = await runs();
        expect(killed).toMatchObject({ status: 'unfinished', spent: 150 });
        expect(killed.inFlight).toBeGreaterThan(0);
        expect(killed.inFlight).toBe(billed - killed.spent);
        expect(killed.spent + killed.inFlight).toBeGreaterThanOrEqual(billed);
        const view = await home().run(['runs', 'view', killed.id], { env });
        expect(view.stdout).toMatch(/^Spent\s+150 addresses so far$/m);
        expect(view.stdout).toMatch(
          /^In flight\s+100 addresses when it stopped \(may have been billed; not in Spent\)$/m,
        );
        const viewJson = JSON.parse((await home().run(['runs', 'view', killed.id, '--json'], { env })).stdout);
        expect(viewJson).toMatchObject({ id: killed.id, spent: 150, inFlight: 100 });

        // Their answers never reached the journal: resumed, they are sent and billed again, and the history says so.
        door.open();
        const resumed = await home().run(['runs', 'resume', killed.id], { env });
        expect(resumed.code, resumed.stderr).toBe(0);
        expect(sandbox.stats().addressesCharged).toBe(unique + 100);
        const [after] = await runs();
        expect(after).toMatchObject({
          id: killed.id,
          status: 'ended',
          outcome: 'success',
          spent: unique,
          inFlight: 100,
        });
        expect(after.spent + after.inFlight).toBe(sandbox.stats().addressesCharged);
        const ended = await home().run(['runs', 'view', killed.id], { env });
        expect(ended.stdout).toMatch(
          /^In flight\s+100 addresses when an attempt it continued stopped \(may have been billed; not in Spent\)$/m,
        );
      } finally {
        await door.close();
      }
    });
  },
);
