// The journal across processes: two runs of the same list at once, one account, nothing paid twice.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHome } from '../helpers/cli.js';
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
    // 12 requests at 2 per second: the first run sends for about 5 s. The second starts once the first is sending
    // (it holds the list's lock from before its first request), so even a start slowed seconds by a loaded machine
    // finds it at work.
    const sandbox = await sandboxes.start({ plan: 'unlimited', rate: { requests: 2, windowMs: 1_000 } });
    await registered(home(), sandbox);
    const input = join(home().dir, 'list.csv');
    writeFileSync(input, list(600));
    const spawnRun = (out: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'clean', input, '-o', join(home().dir, out)], {
          env: { ...process.env, ...home().env() },
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const first = spawnRun('a.csv');
    while (sandbox.stats().cleanRequests < 1) await new Promise((r) => setTimeout(r, 20));
    const [a, b] = await Promise.all([first, spawnRun('b.csv')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(600);
    const waiting =
      /Another run \(pid \d+, since [^)]+\) is cleaning this list with this account; waiting for it to finish/;
    expect(b.stderr).toMatch(waiting);
    expect(a.stderr).not.toMatch(waiting);
    expect(readFileSync(join(home().dir, 'a.csv'), 'utf8')).toBe(readFileSync(join(home().dir, 'b.csv'), 'utf8'));
    // Both runs opened the verdict cache through node:sqlite, which Node still calls experimental.
    expect(a.stderr + b.stderr).not.toMatch(/ExperimentalWarning|experimental feature/);
  });
});
