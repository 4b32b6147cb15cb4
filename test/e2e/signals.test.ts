// Signals in a real process: the first SIGINT or SIGTERM keeps every answer already paid for; a signal in any
// other phase leaves no temporary file or spool behind; the exit code says which signal (130, 143).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SandboxHandle, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { TestHome } from '../helpers/cli.js';
import { TEST_PASSWORD_COST } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

interface Running {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function list(n: number, unique = n): string {
  return `email\n${Array.from({ length: n }, (_, i) => `s${i % unique}@example.com`).join('\n')}\n`;
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Files a run must not leave behind: hidden temp outputs beside the output, spooled copies of the input. */
function leftovers(home: TestHome): string[] {
  const spool = join(home.dataDir, 'spool');
  return [
    ...readdirSync(home.dir).filter((f) => f.endsWith('.tmp')),
    ...(existsSync(spool) ? readdirSync(spool).map((f) => `spool/${f}`) : []),
  ];
}

describe('signals', () => {
  let sandbox: SandboxHandle;
  let home: TestHome;
  let env: Record<string, string | undefined>;

  async function setup(options: SandboxOptions = {}) {
    sandbox = await startSandbox({
      port: 0,
      plan: 'unlimited',
      passwordCost: TEST_PASSWORD_COST,
      rate: { requests: 1_000, windowMs: 1_000 },
      ...options,
    });
    home = new TestHome();
    env = home.env({ MAILCLEAN_API_URL: sandbox.url, MAILCLEAN_CLEAN_URL: sandbox.url });
    const reg = await home.run(
      ['register', '--service', 'clean', '--name', 'T', '--email', 'sig@example.com', '--password-stdin'],
      { stdin: 'a long password', env },
    );
    expect(reg.code, reg.stderr).toBe(0);
  }

  function start(args: string[], stdin: 'ignore' | 'pipe' = 'ignore'): Running {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: env as NodeJS.ProcessEnv,
      stdio: [stdin, 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, stderr })),
    );
    return { child, done };
  }

  beforeEach(() => undefined);
  afterEach(async () => {
    await sandbox?.close();
    home?.cleanup();
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'one %s while requests are in flight: their answers are journaled, --resume pays for nothing twice',
    { timeout: 60_000 },
    async (signal, exitCode) => {
      await setup({ faults: { latencyMs: 300 } });
      const input = join(home.dir, 'list.csv');
      writeFileSync(input, list(1_000));
      const run = start(['clean', input, '-o', join(home.dir, 'out.csv'), '--concurrency', '4']);
      await until(() => sandbox.stats().cleanRequests >= 6, 'requests in flight');
      run.child.kill(signal);
      const stopped = await run.done;
      expect(stopped.code, stopped.stderr).toBe(exitCode);
      const saved = Number(/Interrupted: (\d+) answers saved/.exec(stopped.stderr)?.[1]);
      // Every address the service charged for is in the journal: nothing paid is lost.
      expect(saved).toBe(sandbox.stats().addressesCharged);
      expect(saved).toBeGreaterThan(0);
      expect(leftovers(home)).toEqual([]);

      // The rest in one round of requests rather than four (each takes the injected 300 ms).
      const resumed = start(['clean', input, '-o', join(home.dir, 'out.csv'), '--resume', '--concurrency', '16']);
      const after = await resumed.done;
      expect(after.code, after.stderr).toBe(0);
      expect(sandbox.stats().addressesCharged).toBe(1_000);
    },
  );

  it('SIGKILL during a run leaves a verdict cache that the next run, of another list, reads', {
    timeout: 60_000,
  }, async () => {
    await setup({ faults: { latencyMs: 300 } });
    const first = join(home.dir, 'a.csv');
    writeFileSync(first, list(1_000));
    const run = start(['clean', first, '-o', join(home.dir, 'a.out.csv'), '--concurrency', '4']);
    await until(() => sandbox.stats().cleanRequests >= 9, 'a few answered batches');
    run.child.kill('SIGKILL');
    expect((await run.done).signal).toBe('SIGKILL');
    const paidByTheKilledRun = sandbox.stats().addressesCharged;

    // The same addresses in another list (another journal): only the cache can know them.
    const second = join(home.dir, 'b.csv');
    writeFileSync(second, list(1_000).replace('email\n', 'email\n\n'));
    const next = start(['clean', second, '-o', join(home.dir, 'b.out.csv'), '--concurrency', '16']);
    const done = await next.done;
    expect(done.code, done.stderr).toBe(0);
    const fromCache = Number(
      /([\d,]+) addresses answered within 30 days come from the cache/.exec(done.stderr)?.[1]?.replace(/,/g, ''),
    );
    expect(fromCache).toBeGreaterThanOrEqual(200);
    // What the killed run had paid for and journaled is not paid again: at most its batches in flight are.
    expect(sandbox.stats().addressesCharged).toBe(paidByTheKilledRun + 1_000 - fromCache);
    expect(paidByTheKilledRun - fromCache).toBeLessThanOrEqual(4 * 50);
  });

  it('SIGTERM while stdin is being spooled: exit 143, the partial copy removed', { timeout: 30_000 }, async () => {
    await setup();
    const run = start(['clean', '-', '-o', join(home.dir, 'out.csv')], 'pipe');
    run.child.stdin!.write('email\nfirst@example.com\n');
    await until(
      () => existsSync(join(home.dataDir, 'spool')) && readdirSync(join(home.dataDir, 'spool')).length > 0,
      'the spool file',
    );
    run.child.kill('SIGTERM');
    const stopped = await run.done;
    expect(stopped.code, stopped.stderr).toBe(143);
    expect(stopped.stderr).toMatch(/^Interrupted\.$/m);
    expect(leftovers(home)).toEqual([]);
  });

  it('SIGINT while the output is being written: exit 130, no hidden temporary file beside it', {
    timeout: 60_000,
  }, async () => {
    await setup();
    // Its 10 addresses answered first (in this process: only the run signalled needs one of its own), the big list
    // sends nothing: its run spends its time reading and writing (a second or more for 200,000 rows).
    const few = join(home.dir, 'few.csv');
    writeFileSync(few, list(10));
    const first = await home.run(['clean', few, '-o', join(home.dir, 'few.out.csv')], { env });
    expect(first.code, first.stderr).toBe(0);
    const input = join(home.dir, 'big.csv');
    writeFileSync(input, list(200_000, 10));
    const run = start(['clean', input, '-o', join(home.dir, 'again.csv')]);
    await until(
      () => readdirSync(home.dir).some((f) => f.startsWith('.again.csv') && f.endsWith('.tmp')),
      'the temporary output',
    );
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(existsSync(join(home.dir, 'again.csv'))).toBe(false);
    expect(leftovers(home)).toEqual([]);
  });
});
