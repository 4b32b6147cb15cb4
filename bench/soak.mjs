#!/usr/bin/env node
// Soak: runs of `clean` killed (SIGKILL) or interrupted (SIGINT) at a random moment against the sandbox with faults,
// each then resumed to the end. Checks, per run: the output equals a fault-free, uninterrupted run's (every
// column but email_checked_at); the addresses paid twice stay within the batches that can be in flight at a kill
// (0 for SIGINT, which journals them); no temporary output or spool file is left; no run hangs (each is bounded).
// Figures are printed against the baseline of one clean run in the same process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const RUNS = Number(process.env.SOAK_RUNS ?? 50);
const UNIQUE = Number(process.env.SOAK_UNIQUE ?? 1_500);
const CONCURRENCY = 4;
const RUN_LIMIT_MS = 60_000;
const seed = Number(process.env.SOAK_SEED ?? 7);
const bin = join(root, 'bin', 'mailclean.js');
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));

let state = seed;
const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;

function run(args, env, { killAfterMs, signal } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const killer = killAfterMs !== undefined ? setTimeout(() => child.kill(signal), killAfterMs) : undefined;
    const hang = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('close', (code, killedBy) => {
      clearTimeout(killer);
      clearTimeout(hang);
      resolve({ code, killedBy, stderr, ms: Date.now() - started, hung: Date.now() - started >= RUN_LIMIT_MS });
    });
  });
}

/** The rows without email_checked_at, which differs between runs by nature (found by name: columns follow it). */
function verdicts(path) {
  const [header, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const checkedAt = header.split(',').indexOf('email_checked_at');
  if (checkedAt < 0) throw new Error(`${path}: no email_checked_at column`);
  return [header, ...rows].map((line) => line.split(',').toSpliced(checkedAt, 1).join(','));
}

const lines = ['email,name'];
for (let i = 0; i < UNIQUE; i++) lines.push(`soak${i}@example${i % 17}.com,Person ${i}`);
for (let i = 0; i < 200; i++) lines.push(`soak${i}@EXAMPLE${i % 17}.COM,Again ${i}`); // duplicates by domain case
const list = `${lines.join('\n')}\n`;

async function home(sandbox) {
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-soak-'));
  const env = {
    MAILCLEAN_CONFIG_DIR: join(dir, 'config'),
    MAILCLEAN_DATA_DIR: join(dir, 'data'),
    MAILCLEAN_API_URL: sandbox.url,
    MAILCLEAN_CLEAN_URL: sandbox.url,
  };
  const reg = await new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        bin,
        'register',
        '--service',
        'clean',
        '--name',
        'S',
        '--email',
        `soak${Date.now()}${random()}@example.com`,
        '--password-stdin',
      ],
      {
        env: { ...process.env, ...env },
      },
    );
    child.stdin.end('soak password 123');
    child.on('close', resolve);
  });
  if (reg !== 0) throw new Error('register failed');
  writeFileSync(join(dir, 'list.csv'), list);
  return { dir, env };
}

const sandbox = await startSandbox({
  port: 0,
  plan: 'unlimited',
  rate: { requests: 200, windowMs: 1_000 },
  faults: { serverErrorRate: 0.05, resetRate: 0.05, truncateRate: 0.05, seed, latencyMs: [5, 120] },
});
try {
  // Baseline: one uninterrupted run.
  const base = await home(sandbox);
  const before = sandbox.stats().addressesCharged;
  const reference = await run(['clean', join(base.dir, 'list.csv'), '-o', join(base.dir, 'out.csv')], base.env);
  if (reference.code !== 0) throw new Error(`the reference run failed: ${reference.stderr}`);
  const expected = verdicts(join(base.dir, 'out.csv'));
  const baseCharged = sandbox.stats().addressesCharged - before;
  rmSync(base.dir, { recursive: true, force: true });

  const failures = [];
  let paidTwice = 0;
  let allowedTwice = 0;
  let slowest = 0;
  const counts = { SIGKILL: 0, SIGINT: 0 };
  for (let i = 0; i < RUNS; i++) {
    const h = await home(sandbox);
    const signal = random() < 0.5 ? 'SIGKILL' : 'SIGINT';
    counts[signal]++;
    const chargedBefore = sandbox.stats().addressesCharged;
    const cutBefore = sandbox.stats().faults.truncatedCharged;
    const out = join(h.dir, 'out.csv');
    const first = await run(['clean', join(h.dir, 'list.csv'), '-o', out], h.env, {
      killAfterMs: Math.round(random() * reference.ms),
      signal,
    });
    let last = first;
    for (let attempt = 0; attempt < 5 && last.code !== 0; attempt++)
      last = await run(['clean', join(h.dir, 'list.csv'), '-o', out, '--resume'], h.env);
    slowest = Math.max(slowest, first.ms, last.ms);
    const charged = sandbox.stats().addressesCharged - chargedBefore;
    // Answers the sandbox cut after charging are paid again by design (the client never saw them): not the kill's doing.
    const twice = charged - UNIQUE - (sandbox.stats().faults.truncatedCharged - cutBefore);
    const allowed = signal === 'SIGKILL' ? CONCURRENCY * 50 : 0;
    paidTwice += Math.max(0, twice);
    allowedTwice += allowed;
    const leftovers = [
      ...readdirSync(h.dir).filter((f) => f.endsWith('.tmp')),
      ...(existsSync(join(h.dir, 'data', 'spool')) ? readdirSync(join(h.dir, 'data', 'spool')) : []),
    ];
    const problems = [];
    if (first.hung || last.hung) problems.push('hung');
    if (last.code !== 0) problems.push(`resume exited ${last.code}: ${last.stderr.trim().split('\n').at(-1)}`);
    else if (verdicts(out).join('\n') !== expected.join('\n')) problems.push('output differs from the reference');
    if (twice > allowed) problems.push(`paid twice for ${twice} (at most ${allowed})`);
    if (leftovers.length) problems.push(`left ${leftovers.join(', ')}`);
    if (problems.length) failures.push(`run ${i + 1} (${signal}): ${problems.join('; ')}`);
    rmSync(h.dir, { recursive: true, force: true });
  }

  console.log(
    `soak: ${RUNS} runs of ${UNIQUE.toLocaleString('en-US')} unique addresses (${lines.length - 1} rows), faults 15% (seed ${seed}), node ${process.version}`,
  );
  console.log(
    `signals: ${counts.SIGKILL} SIGKILL, ${counts.SIGINT} SIGINT, each at a random moment of the reference run (${(reference.ms / 1000).toFixed(1)} s)`,
  );
  console.log(`reference run: ${baseCharged} charged (ratio to unique ${(baseCharged / UNIQUE).toFixed(2)}x)`);
  console.log(
    `paid twice: ${paidTwice} addresses in all (bound ${allowedTwice}: ${CONCURRENCY} batches of 50 per SIGKILL, 0 per SIGINT)`,
  );
  console.log(
    `slowest run: ${(slowest / 1000).toFixed(1)} s (${(slowest / reference.ms).toFixed(2)}x the reference; limit ${RUN_LIMIT_MS / 1000} s)`,
  );
  console.log(
    failures.length
      ? `FAILED ${failures.length}/${RUNS}:\n  ${failures.join('\n  ')}`
      : `all ${RUNS} runs: output equal to the reference, no leftovers, no hang`,
  );
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await sandbox.close();
}
