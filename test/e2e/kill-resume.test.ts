// A run killed with SIGKILL, then resumed: a real process, a real signal.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

const sandboxes = useSandboxes();
const home = useHome();

describe('clean: SIGKILL', () => {
  it('a run killed with SIGKILL resumes to the same output, paying at most for the batches in flight', {
    timeout: 60_000,
  }, async () => {
    // The killed run is slowed by its own --rate (41 requests take 2.4 s); the service's limit lets the resumed
    // and the reference runs go at once.
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 100, windowMs: 1_000 } });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    const generated = 40 * 50;
    // One more mailbox, however it is spelt: `dup@`, `DUP@` and `dup@DOMAIN1.COM` are one address.
    const rows = Array.from({ length: generated }, (_, i) => `user${i}@domain${i % 13}.com,${i}\n`).join('');
    writeFileSync(input, `email,id\n${rows}dup@domain1.com,x\nDUP@domain1.com,y\ndup@DOMAIN1.COM,z\n`);
    const unique = generated + 1;
    const out = join(home().dir, 'out.csv');
    const concurrency = 2;

    const child = spawn(
      process.execPath,
      [BIN, 'clean', input, '-o', out, '--rate', '5/300ms', '--concurrency', String(concurrency)],
      {
        env: { ...process.env, ...home().env(), CI: '1' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal ? -1 : _code)),
    );
    // Kill it once it is well into the run.
    const deadline = Date.now() + 60_000;
    while (sandbox.stats().cleanRequests < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited, stderr).toBe(-1);
    const chargedAtKill = sandbox.stats().addressesCharged;
    expect(chargedAtKill).toBeGreaterThan(0);
    expect(chargedAtKill).toBeLessThan(unique);

    const resumed = await home().run(['clean', input, '-o', out, '--resume', '--rate', '100/1s']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/Resuming: \d+ addresses already checked/);
    const spent = sandbox.stats().addressesCharged;
    expect(spent).toBeGreaterThanOrEqual(unique);
    expect(spent).toBeLessThanOrEqual(unique + concurrency * 50);

    // The same output as an uninterrupted run (times aside).
    const reference = join(home().dir, 'reference.csv');
    const fresh = await home().run(['clean', input, '-o', reference, '--restart', '--rate', '100/1s']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const withoutTimes = (path: string) => {
      const rows = parse(readFileSync(path)) as string[][];
      const at = rows[0]!.indexOf('email_checked_at');
      return rows.map((r) => r.filter((_, i) => i !== at));
    };
    expect(withoutTimes(out)).toEqual(withoutTimes(reference));
  });
});
