// A run of the real CLI killed with SIGKILL mid-way: `runs` shows it unfinished, with what it paid so far, and
// `runs resume ID` finishes it under the same ID without paying any address twice. The killed process is stopped
// at a door in front of the sandbox that lets a few requests through, then holds the next: nothing is in flight
// at the service when it dies, so what it paid is exactly what its journal kept. In both stores.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../helpers/redis.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
if (!redisInstalled) console.log(`test/e2e/runs-kill.test.ts: ${REDIS_SKIP_NOTE} (the Redis store's case)`);

const STORES = [
  { store: 'disk', available: true },
  { store: 'redis', available: redisInstalled || redisRequired },
].filter((s) => s.available);

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
      const input = join(home().dir, 'list.csv');
      const unique = 500;
      writeFileSync(input, `email\n${Array.from({ length: unique }, (_, i) => `k${i}@example.com`).join('\n')}\n`);
      const out = join(home().dir, 'out.csv');
      const child = spawn(process.execPath, [BIN, 'clean', input, '-o', out, '--concurrency', '1'], {
        env: { ...process.env, ...home().env(env), CI: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      const runs = async () => JSON.parse((await home().run(['runs', '--json'], { env })).stdout);
      // Three batches answered and kept, the fourth held at the door: then it dies.
      const journaled = await eventually(async () => door.waiting() === 1 && (await runs())[0]?.spent === 150);
      expect(journaled, stderr).toBe(true);
      const [running] = await runs();
      expect(running).toMatchObject({ status: 'running', pid: child.pid });
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(await eventually(() => door.waiting() === 0)).toBe(true);
      expect(sandbox.stats().addressesCharged).toBe(150);

      const [killed] = await runs();
      expect(killed).toMatchObject({ id: running.id, status: 'unfinished', endedAt: null, outcome: null, spent: 150 });
      const table = (await home().run(['runs'], { env })).stdout.split('\n');
      expect(table[1]!.split('\t').slice(3, 7)).toEqual(['unfinished', String(unique), '150', '-']);
      const view = await home().run(['runs', 'view', killed.id], { env });
      expect(view.stdout).toMatch(/^Status\s+unfinished: stopped before its end/m);
      expect(view.stdout).toMatch(/^Spent\s+150 addresses so far$/m);

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
        outputs: [{ path: out, role: 'output', rows: unique }],
      });
    } finally {
      await door.close();
    }
  });
});
