// Two lists of one account cleaned at once by two processes: each counts its spend down from the allowance the
// account knew, and what is left afterwards is what the service says, whichever run ends last.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { eventually } from '../helpers/gate.js';
import { PASSWORD, registered, urlsOf, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

describe('two runs of one account at once', () => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  /** A month's turn forgets what was known of the allowance, as it should: a test started just before one waits. */
  async function pastMonthsEnd(): Promise<void> {
    const now = new Date();
    const turn = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime();
    if (turn < 30_000) await new Promise((resolve) => setTimeout(resolve, turn + 1_000));
  }

  const left = async () => JSON.parse((await home.run(['allowance', '--json', 'left,source'])).stdout);

  /** A `clean` of `size` new addresses in its own process, one request at a time. */
  function cleanOf(size: number, n: number): Promise<{ code: number | null; stderr: string }> {
    const input = join(home.dir, `list${n}.csv`);
    writeFileSync(input, `email\n${Array.from({ length: size }, (_, i) => `r${n}-${i}@example.com`).join('\n')}\n`);
    const args = [BIN, 'clean', input, '-o', `${input}.out`, '--no-precheck', '--concurrency', '1'];
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, { env: { ...process.env, ...home.env() } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('the allowance left counts both runs down, as the service does', { timeout: 60_000 }, async () => {
    // Each answer 1 s late: the two runs overlap, both having read the allowance before either ends.
    await pastMonthsEnd();
    const sandbox = await sandboxes.start({ plan: 'pro', faults: { latencyMs: 1_000 } });
    await registered(home, sandbox);
    const before = await left();
    expect(before.left).toBeGreaterThan(1_000);
    for (const r of await Promise.all([cleanOf(150, 0), cleanOf(60, 1)])) expect(r.code, r.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(210);
    expect(await left()).toEqual({ left: before.left - 210, source: 'run' });
  });

  it('a sign-in during a run tells part of its spend: the run counts down from what it began with', {
    timeout: 60_000,
  }, async () => {
    await pastMonthsEnd();
    const sandbox = await sandboxes.start({ plan: 'pro', faults: { latencyMs: 1_000 } });
    await registered(home, sandbox, { email: 'ada@example.com' });
    const before = await left();
    const running = cleanOf(150, 0);
    expect(await eventually(() => sandbox.stats().addressesCharged === 50, 20_000)).toBe(true);
    const login = ['login', '--service', 'clean', '--email', 'ada@example.com', '--password-stdin'];
    expect((await home.run([...urlsOf(sandbox), ...login], { stdin: PASSWORD })).code).toBe(0);
    expect(await left()).toEqual({ left: before.left - 50, source: 'signin' });
    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(await left()).toEqual({ left: before.left - 150, source: 'run' });
  });
});
