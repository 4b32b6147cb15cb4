#!/usr/bin/env node
// --shared on Redis: (1) one runner, 5,000 addresses at 50 requests per 5 s, with the Redis limiter against the
// file limiter in the same session (wall ratio; both should sit near the rate's minimum). (2) Two runners with
// separate data directories cleaning overlapping lists at once through one Redis: 429 answers, arrivals in any
// window, addresses charged against the unique addresses.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, registerCleaning, root } from './lib.mjs';

const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));
const bin = join(root, 'bin', 'mailclean.js');
const rate = { requests: 50, windowMs: 5_000 };
const list = (from, n) =>
  `email\n${Array.from({ length: n }, (_, i) => `b${from + i}@example${(from + i) % 31}.com`).join('\n')}\n`;

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = s.address();
    s.close(() => resolve(free));
  });
});
const redis = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  { stdio: 'ignore' },
);
await new Promise((r) => setTimeout(r, 300));
const url = `redis://127.0.0.1:${port}`;

async function account(sandbox) {
  const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
  const env = {
    MAILCLEAN_CONFIG_DIR: join(home, 'c'),
    MAILCLEAN_DATA_DIR: join(home, 'd'),
    MAILCLEAN_API_URL: sandbox.url,
    MAILCLEAN_CLEAN_URL: sandbox.url,
  };
  await registerCleaning(bin, env);
  return { home, env };
}

try {
  const results = {};
  for (const mode of ['file', 'redis']) {
    const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate });
    const { home, env } = await account(sandbox);
    writeFileSync(join(home, 'list.csv'), list(0, 5_000));
    const args = [bin, 'clean', join(home, 'list.csv'), '-o', join(home, 'out.csv'), '--rate', '50/5s', '--yes'];
    const run = await measure(mode === 'redis' ? [...args, '--shared', url] : args, { env });
    if (run.code !== 0) throw new Error(run.stderr);
    results[mode] = { ms: run.ms, stats: sandbox.stats() };
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
  // 100 requests at 50 per window: the second 50 wait one window.
  const minimum = (Math.ceil(5_000 / 50 / rate.requests) - 1) * rate.windowMs;
  console.log(`--shared on Redis ${url}, node ${process.version}`);
  for (const [mode, r] of Object.entries(results)) {
    console.log(
      `${mode.padEnd(5)} limiter: ${(r.ms / 1000).toFixed(1)} s for 100 requests (minimum ${(minimum / 1000).toFixed(1)} s), 429s ${r.stats.rateLimited}, most arrivals in a window ${r.stats.maxArrivalsInAnyWindow}`,
    );
  }
  console.log(`wall ratio redis / file: ${(results.redis.ms / results.file.ms).toFixed(2)}x`);

  // Two runners at once, overlapping lists, one account.
  const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate });
  const first = await account(sandbox);
  const token = await new Promise((resolve) => {
    const c = spawn(process.execPath, [bin, 'auth', 'token', '--service', 'clean'], {
      env: { ...process.env, ...first.env },
    });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('close', () => resolve(out.trim()));
  });
  const machines = [0, 1].map((i) => {
    const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
    writeFileSync(join(home, 'list.csv'), list(i * 1_500, 3_000));
    return {
      home,
      env: {
        MAILCLEAN_CONFIG_DIR: join(home, 'c'),
        MAILCLEAN_DATA_DIR: join(home, 'd'),
        MAILCLEAN_CLEAN_URL: sandbox.url,
        MAILCLEAN_CLEAN_TOKEN: token,
        MAILCLEAN_REDIS_URL: url,
      },
    };
  });
  const started = Date.now();
  const runs = await Promise.all(
    machines.map((m) =>
      measure([bin, 'clean', join(m.home, 'list.csv'), '-o', join(m.home, 'out.csv'), '--rate', '50/5s', '--yes'], {
        env: m.env,
      }),
    ),
  );
  const stats = sandbox.stats();
  console.log(
    `two runners, 3,000 + 3,000 addresses with 1,500 in common (4,500 unique): ${((Date.now() - started) / 1000).toFixed(1)} s, exits ${runs.map((r) => r.code).join(', ')}`,
  );
  console.log(
    `429s ${stats.rateLimited}, most arrivals in any 5 s window ${stats.maxArrivalsInAnyWindow} (limit 50), charged ${stats.addressesCharged} for 4,500 unique  ${stats.rateLimited === 0 && stats.addressesCharged === 4_500 && stats.maxArrivalsInAnyWindow <= 50 ? 'ok' : 'FAIL'}`,
  );
  await sandbox.close();
  for (const m of [...machines, first]) rmSync(m.home, { recursive: true, force: true });
} finally {
  redis.kill();
}
