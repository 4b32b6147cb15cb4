// The journal across processes: two runs of the same list at once, one account, nothing paid twice.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
import { eventually, startGate } from '../helpers/gate.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

function list(n: number): string {
  return `email\n${Array.from({ length: n }, (_, i) => `j${i}@example.com`).join('\n')}\n`;
}

describe('the journal', () => {
  const sandboxes = useSandboxes();
  const home = useHome();

  it('two runs of the same list at once: the second waits for the first and pays for nothing', {
    timeout: 60_000,
  }, async () => {
    // The first run's requests wait at a gate in front of the sandbox until the second run says it is waiting for
    // the first: however slowly a loaded machine starts the second process, it finds the first at work (a first run
    // made to last 3 s, then 5 s, still finished first once under load).
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 100, windowMs: 1_000 } });
    await registered(home(), sandbox);
    const gate = await startGate(sandbox.url);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(600));
    const spawnRun = (out: string) => {
      const child = spawn(process.execPath, [BIN, 'clean', input, '-o', join(home().dir, out)], {
        env: { ...process.env, ...home().env({ MAILCLEAN_CLEAN_URL: gate.url }) },
      });
      const run = { stderr: '', done: new Promise<number | null>((resolve) => child.on('close', resolve)) };
      child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
      return run;
    };
    const waiting =
      /Another run \(pid \d+, since [^)]+\) is cleaning this list with this account; waiting for it to finish/;
    const first = spawnRun('a.csv');
    let second: ReturnType<typeof spawnRun> | undefined;
    try {
      await eventually(() => gate.waiting() > 0);
      second = spawnRun('b.csv');
      await eventually(() => waiting.test(second!.stderr));
    } finally {
      gate.open();
    }
    const [a, b] = [
      { code: await first.done, stderr: first.stderr },
      { code: await second!.done, stderr: second!.stderr },
    ];
    await gate.close();
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(600);
    expect(b.stderr).toMatch(waiting);
    expect(a.stderr).not.toMatch(waiting);
    expect(readFileSync(join(home().dir, 'a.csv'), 'utf8')).toBe(readFileSync(join(home().dir, 'b.csv'), 'utf8'));
    // Both runs opened the verdict cache through node:sqlite, which Node still calls experimental.
    expect(a.stderr + b.stderr).not.toMatch(/ExperimentalWarning|experimental feature/);
  });
});
