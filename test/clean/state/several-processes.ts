// Several processes cleaning overlapping lists at once with one account state (the contract suite's adapters):
// each a real process running the clean service (clean-worker.mjs) against one sandbox on 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CleaningClient } from '../../../src/api/cleaning.js';
import { HttpClient } from '../../../src/api/http.js';
import type { StateLocation } from '../../../src/clean/state/account-state.js';
import { startSandbox } from '../../../src/sandbox/server.js';

const WORKER = join(import.meta.dirname, 'clean-worker.mjs');

export interface SeveralRuns {
  exits: Array<number | null>;
  /** Addresses the service charged, and addresses in the lists' union. */
  charged: number;
  addresses: number;
  stderr: string;
}

/** `processes` lists of `rows` addresses, each starting `step` after the one before; all cleaned at once. */
export async function severalProcesses(
  where: StateLocation,
  opts: { processes: number; rows: number; step: number },
): Promise<SeveralRuns> {
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-several-'));
  // Answers take a while, so that runs overlap in flight: the claims, not luck, keep them from paying twice.
  const sandbox = await startSandbox({
    port: 0,
    plan: 'pro',
    rate: { requests: 10_000, windowMs: 1_000 },
    faults: { latencyMs: [20, 80] },
  });
  try {
    let token: string | undefined;
    const client = new CleaningClient(
      new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token }),
    );
    token = (
      await client.signup({ name: 'Several', email: `several-${Date.now()}@example.com`, password: 'a long password' })
    ).token;
    const runs = Array.from({ length: opts.processes }, (_, i) => {
      const input = join(dir, `list-${i}.csv`);
      const first = i * opts.step;
      writeFileSync(
        input,
        `email\n${Array.from({ length: opts.rows }, (_, j) => `p${first + j}@example.com`).join('\n')}\n`,
      );
      const worker = { where, input, url: sandbox.url, token, spoolDir: join(dir, `spool-${i}`) };
      return runWorker({ ...process.env, MAILCLEAN_WORKER: JSON.stringify(worker) });
    });
    const done = await Promise.all(runs);
    return {
      exits: done.map((d) => d.code),
      charged: sandbox.stats().addressesCharged,
      addresses: opts.rows + opts.step * (opts.processes - 1),
      stderr: done.map((d) => d.stderr).join('\n---\n'),
    };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runWorker(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WORKER], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
