// Runners on two machines (two data directories) cleaning with one account and one Redis: together they keep
// the rate limit and never pay twice; Redis going away stops the sending without losing anything.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Claims } from '../../src/clean/state/redis/claims.js';
import { connectShared } from '../../src/clean/state/redis/connect.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { eventually, type Gate, startGate } from '../helpers/gate.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../helpers/redis.js';
import { registered, TEST_PASSWORD_COST } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
if (!redisInstalled) console.log(`test/e2e/shared.test.ts: ${REDIS_SKIP_NOTE}`);

function list(from: number, n: number): string {
  return `email\n${Array.from({ length: n }, (_, i) => `r${from + i}@example.com`).join('\n')}\n`;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.runIf(redisInstalled || redisRequired)('--shared: two machines, one account, one Redis', () => {
  let redis: RedisHandle;
  let sandbox: SandboxHandle;
  let machines: TestHome[];
  let token: string;
  let gates: Gate[] = [];
  /** A gate in front of this test's sandbox, closed after the test. */
  async function gated(): Promise<Gate> {
    const gate = await startGate(sandbox.url);
    gates.push(gate);
    return gate;
  }
  /** A new sandbox with this rate limit, and the token of an account registered on it. */
  async function serve(rate: { requests: number; windowMs: number }): Promise<void> {
    sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate, passwordCost: TEST_PASSWORD_COST });
    const registrar = new TestHome();
    await registered(registrar, sandbox, { email: 'shared@example.com' });
    token = (await registrar.run(['auth', 'token', '--service', 'clean'])).stdout.trim();
    registrar.cleanup();
  }
  beforeEach(async () => {
    redis = await startRedis();
    await serve({ requests: 5, windowMs: 1_000 });
    machines = [new TestHome(), new TestHome()];
  });
  afterEach(async () => {
    await Promise.all(gates.map((g) => g.close()));
    gates = [];
    await redis.stop();
    await sandbox.close();
    for (const m of machines) m.cleanup();
  });

  /** The environment of a runner on machine `m`, sending to `url` (the sandbox, or a gate in front of it). */
  const envOf = (m: TestHome, url = sandbox.url) =>
    ({
      ...process.env,
      ...m.env({ MAILCLEAN_CLEAN_URL: url, MAILCLEAN_CLEAN_TOKEN: token, MAILCLEAN_REDIS_URL: redis.url }),
    }) as NodeJS.ProcessEnv;
  // The service's limit, told to both runners as the account's rate.
  const RATE = ['--rate', '5/1s'];
  /** How many keys of the shared state match `pattern` (claims, runners' signs of life). */
  async function countKeys(pattern: string): Promise<number> {
    const connection = await connectShared(redis.url);
    try {
      return (await connection.keys(pattern)).length;
    } finally {
      connection.disconnect();
    }
  }

  it('overlapping lists at once: no 429, at most 5 arrivals in any 1 s, no address charged twice', {
    timeout: 90_000,
  }, async () => {
    // 300 + 300 addresses, 150 of them in both lists: 450 unique, 9 requests of 50 at best. Their requests wait at
    // the gate until both runners are up, however long one takes to start: they are sure to compete.
    const gate = await gated();
    const [one, two] = machines as [TestHome, TestHome];
    writeFileSync(join(one.dir, 'a.csv'), list(0, 300));
    writeFileSync(join(two.dir, 'b.csv'), list(150, 300));
    const summaries = [join(one.dir, 'a.json'), join(two.dir, 'b.json')] as const;
    const both = Promise.all([
      run(
        ['clean', join(one.dir, 'a.csv'), '-o', join(one.dir, 'a.out.csv'), '--summary-json', summaries[0], ...RATE],
        envOf(one, gate.url),
      ),
      run(
        ['clean', join(two.dir, 'b.csv'), '-o', join(two.dir, 'b.out.csv'), '--summary-json', summaries[1], ...RATE],
        envOf(two, gate.url),
      ),
    ]);
    await eventually(async () => (await countKeys('*:runner:*')) === 2);
    gate.open();
    const [a, b] = await both;
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const stats = sandbox.stats();
    expect(stats.rateLimited).toBe(0);
    expect(stats.maxArrivalsInAnyWindow).toBeLessThanOrEqual(5);
    expect(stats.addressesCharged, `${a.stderr}\n---\n${b.stderr}`).toBe(450);
    // Each summary tells what it sent as what it spent: the other runner's answers came from the cache.
    for (const path of summaries) {
      const summary = JSON.parse(readFileSync(path, 'utf8')) as {
        spent: number;
        answered: { sent: number; fromCache: number };
      };
      expect(summary.answered.sent).toBe(summary.spent);
      expect(summary.answered.sent + summary.answered.fromCache).toBe(300);
    }
    for (const [m, name] of [
      [one, 'a'],
      [two, 'b'],
    ] as const) {
      const rows = readFileSync(join(m.dir, `${name}.out.csv`), 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      expect(rows).toHaveLength(300);
      expect(rows.every((r) => r.split(',')[1] === 'valid')).toBe(true);
    }
  });

  it('one long list on two machines: claimed a chunk at a time, so both runners send from the start and nothing is paid twice', {
    timeout: 90_000,
  }, async () => {
    // 2,000 addresses, two chunks of 1,000, and two runners started at once. The requests of the first to claim a
    // chunk wait at the gate until the other has claimed the second chunk: it used to be a race between the second
    // runner's start-up and the first one's progress through the list, lost under load.
    await sandbox.close();
    await serve({ requests: 20, windowMs: 1_000 });
    const gate = await gated();
    for (const m of machines) writeFileSync(join(m.dir, 'list.csv'), list(0, 2_000));
    const rate = ['--rate', '20/1s'];
    const [first, second] = machines.map((m) =>
      run(['clean', join(m.dir, 'list.csv'), '-o', join(m.dir, 'out.csv'), ...rate], envOf(m, gate.url)),
    ) as [ReturnType<typeof run>, ReturnType<typeof run>];
    // Claimed whole, the list would be all the first runner's by now, and the other would have nothing to send.
    await eventually(async () => (await countKeys('*:claim:*')) >= 2_000);
    gate.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged, `${a.stderr}\n---\n${b.stderr}`).toBe(2_000);
    const spent = (stderr: string) => Number(/spent ([\d,]+) address/.exec(stderr)?.[1]?.replace(/,/g, '') ?? 0);
    expect(spent(a.stderr), a.stderr).toBeGreaterThan(0);
    expect(spent(b.stderr), b.stderr).toBeGreaterThan(0);
    expect(spent(a.stderr) + spent(b.stderr)).toBe(2_000);
    for (const m of machines)
      expect(readFileSync(join(m.dir, 'out.csv'), 'utf8').trim().split('\n')).toHaveLength(2_001);
  });

  it('--max-spend counts the whole run, addresses another runner gave back unsent included', {
    timeout: 60_000,
  }, async () => {
    const [one] = machines as [TestHome];
    writeFileSync(join(one.dir, 'list.csv'), list(0, 200));
    const env = { MAILCLEAN_CLEAN_URL: sandbox.url, MAILCLEAN_CLEAN_TOKEN: token, MAILCLEAN_REDIS_URL: redis.url };
    const cacheKey = (await one.run(['cache', 'path'], { env })).stdout.trim().split(' ')[1]!;
    // Another runner of the account holds the last 100 addresses, then stops without sending them.
    const connection = await connectShared(redis.url);
    const other = new Claims(connection, redis.url, cacheKey.replace(/:cache$/, ''));
    try {
      await other.start();
      expect((await other.claim(list(100, 100).trim().split('\n').slice(1))).mine).toHaveLength(100);
      const running = run(
        ['clean', join(one.dir, 'list.csv'), '-o', join(one.dir, 'out.csv'), '--max-spend', '150', ...RATE],
        envOf(one),
      );
      while (sandbox.stats().cleanRequests < 1) await new Promise((r) => setTimeout(r, 20));
      await other.release();
      const res = await running;
      expect(res.code, res.stderr).toBe(3);
      expect(res.stderr).toMatch(/unchecked: stopped at --max-spend 150/);
      expect(res.stderr).toMatch(/spent 150 addresses in \d+ requests/);
      expect(sandbox.stats().addressesCharged).toBe(150);
    } finally {
      connection.disconnect();
    }
  });

  it('cache stats, path and clear see the Redis cache clean wrote to, not a file of this machine', {
    timeout: 60_000,
  }, async () => {
    const [one] = machines as [TestHome, TestHome];
    writeFileSync(join(one.dir, 'a.csv'), list(0, 60));
    const cleaned = await run(['clean', join(one.dir, 'a.csv'), '-o', join(one.dir, 'a.out.csv'), ...RATE], envOf(one));
    expect(cleaned.code, cleaned.stderr).toBe(0);
    const env = { MAILCLEAN_CLEAN_URL: sandbox.url, MAILCLEAN_CLEAN_TOKEN: token, MAILCLEAN_REDIS_URL: redis.url };
    const stats = await one.run(['cache', 'stats', '--json'], { env });
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout).entries).toBe(60);
    expect((await one.run(['cache', 'path'], { env })).stdout).toMatch(
      new RegExp(`^${redis.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} mailclean:[0-9a-f]+:cache\n$`),
    );
    const local = await one.run(['cache', 'stats', '--json'], { env: { ...env, MAILCLEAN_REDIS_URL: undefined } });
    expect(JSON.parse(local.stdout).entries).toBe(0);
    expect(JSON.parse((await one.run(['cache', 'clear', '--json', '--yes'], { env })).stdout)).toEqual({ removed: 60 });
    expect(JSON.parse((await one.run(['cache', 'stats', '--json'], { env })).stdout).entries).toBe(0);
  });

  it('--local on another machine keeps the answers in the shared cache and checks only the rest', {
    timeout: 60_000,
  }, async () => {
    const [one, two] = machines as [TestHome, TestHome];
    writeFileSync(join(one.dir, 'a.csv'), list(0, 100));
    const paid = await run(['clean', join(one.dir, 'a.csv'), '-o', join(one.dir, 'a.out.csv'), ...RATE], envOf(one));
    expect(paid.code, paid.stderr).toBe(0);
    // The engine, asking this DNS server, finds no such domain: its verdicts differ from the service's.
    const dns = await startDnsServer({ com: { NS: ['ns.example.'] } });
    try {
      writeFileSync(join(two.dir, 'b.csv'), list(50, 100));
      const local = await run(
        ['clean', join(two.dir, 'b.csv'), '-o', join(two.dir, 'b.out.csv'), '--local', '--dns-server', dns.server],
        envOf(two),
      );
      expect(local.code, local.stderr).toBe(0);
      expect(local.stderr).toMatch(
        /^Keeping 50 answers the service gave \(50 from the cache\); checking the other 50 with the built-in engine\.$/m,
      );
      const statuses = readFileSync(join(two.dir, 'b.out.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((r) => r.split(',')[1]);
      expect(statuses).toEqual([...Array(50).fill('valid'), ...Array(50).fill('invalid')]);
      expect(sandbox.stats().addressesCharged).toBe(100);

      // Without Redis, --local warns and checks everything itself: nothing is paid either way.
      await redis.stop();
      const alone = await run(
        ['clean', join(two.dir, 'b.csv'), '-o', join(two.dir, 'b.out.csv'), '--local', '--dns-server', dns.server],
        envOf(two),
      );
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stderr).toMatch(
        /^warning: .*redis:\/\/127\.0\.0\.1:\d+.*: the engine checks what the journal does not answer$/m,
      );
    } finally {
      await dns.close();
    }
  });

  it('Redis stopped mid-run: exit 3, every row written, nothing sent unbooked; --resume finishes', {
    timeout: 90_000,
  }, async () => {
    const [one] = machines as [TestHome];
    const input = join(one.dir, 'list.csv');
    writeFileSync(input, list(0, 600)); // 12 requests
    const out = join(one.dir, 'out.csv');
    // Redis stops while the first requests wait at the gate: in flight, booked, not yet answered.
    const gate = await gated();
    const running = run(['clean', input, '-o', out, ...RATE], envOf(one, gate.url));
    await eventually(() => gate.waiting() >= 3);
    await redis.stop();
    gate.open();
    const stopped = await running;
    expect(stopped.code, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(/unchecked: the shared state at redis:\/\/127\.0\.0\.1:\d+ cannot be reached/);
    expect(stopped.stderr).toMatch(
      /hint: nothing was sent unbooked; when the shared Redis is back, run the same command with --resume/,
    );
    const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(600);
    const charged = sandbox.stats().addressesCharged;
    expect(rows.filter((r) => r.split(',')[1] === 'valid')).toHaveLength(charged);

    await redis.restart();
    // Through the same (open) gate: the service's URL is part of what names the account, and so its journal.
    const resumed = await run(['clean', input, '-o', out, '--resume', ...RATE], envOf(one, gate.url));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(600);
  });
});
