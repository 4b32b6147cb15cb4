#!/usr/bin/env node
// Three runs of one account at once under one limit, on an idle and on a loaded machine (a busy loop per core):
// 429s seen by the service, the most arrivals it saw in any window, and the wall time as a ratio to the least the
// limit allows ((requests / N - 1) x W, the first N going at once). Needs a build.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));
const RUNS = 3;
const PER_RUN = Number(process.env.BENCH_REQUESTS ?? 20);
const rate = { requests: 10, windowMs: 2_000 };
const bin = join(root, 'bin', 'mailclean.js');

function run(args, env, input) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    if (input !== undefined) child.stdin.end(input);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

async function round(loaded) {
  const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
  const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate });
  const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };
  const burners = loaded ? cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })) : [];
  try {
    const reg = await run(
      [
        '--api-url',
        sandbox.url,
        '--clean-url',
        sandbox.url,
        'register',
        '--service',
        'clean',
        '--name',
        'B',
        '--email',
        'b@example.com',
        '--password-stdin',
      ],
      env,
      'a long password',
    );
    if (reg.code !== 0) throw new Error(reg.stderr);
    const lists = Array.from({ length: RUNS }, (_, n) => {
      const file = join(home, `list${n}.csv`);
      writeFileSync(
        file,
        `email\n${Array.from({ length: PER_RUN * 50 }, (_, i) => `r${n}-${i}@example.com`).join('\n')}\n`,
      );
      return file;
    });
    const started = Date.now();
    const results = await Promise.all(
      lists.map((file) =>
        run(
          [
            'clean',
            file,
            '-o',
            `${file}.out`,
            '--rate',
            `${rate.requests}/${rate.windowMs / 1000}s`,
            '--concurrency',
            '4',
          ],
          env,
        ),
      ),
    );
    const ms = Date.now() - started;
    for (const r of results) if (r.code !== 0) throw new Error(r.stderr);
    const minimum = ((RUNS * PER_RUN) / rate.requests - 1) * rate.windowMs;
    const stats = sandbox.stats();
    return { ms, ratio: ms / minimum, rateLimited: stats.rateLimited, most: stats.maxArrivalsInAnyWindow };
  } finally {
    for (const b of burners) b.kill('SIGKILL');
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
}

console.log(
  `${RUNS} runs x ${PER_RUN} requests at ${rate.requests}/${rate.windowMs / 1000}s, node ${process.version}, ${cpus().length} cores`,
);
let failed = false;
for (const loaded of [false, true]) {
  const r = await round(loaded);
  const ok = r.rateLimited === 0 && r.most <= rate.requests;
  failed ||= !ok;
  console.log(
    `${loaded ? 'loaded' : 'idle  '}  wall ${(r.ms / 1000).toFixed(1)} s = ${r.ratio.toFixed(2)}x the minimum  429s ${r.rateLimited}  most in a window ${r.most}/${rate.requests}  ${ok ? 'ok' : 'FAIL'}`,
  );
}
process.exitCode = failed ? 1 : 0;
