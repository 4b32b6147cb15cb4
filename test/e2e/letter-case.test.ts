// Two terminals clean overlapping lists under one account at once, one list with its local parts in capitals: real
// processes, one data directory. Each address is paid once, whatever its case (the claims and the cache see one key).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestHome } from '../helpers/cli.js';
import { registered, useSandboxes } from '../helpers/sandbox.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');

describe.each(['spec', 'alt'] as const)('overlapping lists in two letter cases at once (%s answers)', (shape) => {
  const sandboxes = useSandboxes();
  let home: TestHome;
  beforeEach(() => {
    home = new TestHome();
  });
  afterEach(() => home.cleanup());

  it('no address is paid twice: 300 shared, 100 each of their own, 500 paid', { timeout: 60_000 }, async () => {
    // A slow service: both runs are sending while the other claims.
    const sandbox = await sandboxes.start({ shape, plan: 'unlimited', faults: { latencyMs: [20, 60] } });
    await registered(home, sandbox);
    const shared = Array.from({ length: 300 }, (_, i) => `anna.nowak${i}@example.org`);
    const lists = [
      [...shared, ...Array.from({ length: 100 }, (_, i) => `own.a${i}@example.org`)],
      [
        ...shared.map((a, i) => (i % 2 ? a.toUpperCase() : `Anna.Nowak${i}@Example.Org`)),
        ...Array.from({ length: 100 }, (_, i) => `own.b${i}@example.org`),
      ],
    ];
    const runs = lists.map((addresses, n) => {
      const input = join(home.dir, `list${n}.csv`);
      writeFileSync(input, `email\n${addresses.join('\n')}\n`);
      return new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [BIN, 'clean', input, '-o', `${input}.out`, '--rate', '1000/1s', '--no-precheck', '--concurrency', '2'],
          { env: { ...process.env, ...home.env() } },
        );
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    });
    const results = await Promise.all(runs);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(sandbox.stats().addressesCharged).toBe(500);
  });
});
