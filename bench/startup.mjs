#!/usr/bin/env node
// Startup cost of everyday commands as ratios to a bare `node -e 0` measured in the same run, interleaved so that
// machine noise hits all alike; each command with Node's compile cache (what bin/mailclean.js turns on) and
// without it (NODE_DISABLE_COMPILE_CACHE=1). `me` runs against the built-in sandbox (zero config), so it includes
// starting that server in-process. Needs a build (npm ci runs it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/mailclean.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 21);
const home = mkdtempSync(join(tmpdir(), 'mailclean-startup-'));
const env = {
  ...process.env,
  NO_COLOR: '1',
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
};
delete env.MAILCLEAN_API_URL;
delete env.MAILCLEAN_TOKEN;
const commands = {
  '--version': ['--version'],
  '--help': ['--help'],
  'config list': ['config', 'list'],
  'me (sandbox)': ['me'],
};
// Node 22 starts 2.6x faster than Node 20 did (37 ms against 95), so commander's fixed 15-20 ms is a larger share of
// `--help` than when the 1.5x target was set: the target is now 2x.
const targets = { '--version': 1.3, '--help': 2 };
const cases = { 'node -e 0': { args: ['-e', '0'], env } };
for (const [name, args] of Object.entries(commands)) {
  cases[`${name}, compile cache`] = { args: [bin, ...args], env };
  cases[`${name}, no cache`] = { args: [bin, ...args], env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } };
}

function timeOnce({ args, env }) {
  const started = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (res.status !== 0) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  // One untimed round warms the file cache, the compile cache and the sandbox account `me` signs in with.
  for (const c of Object.values(cases)) timeOnce(c);
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) for (const [name, c] of Object.entries(cases)) samples[name].push(timeOnce(c));

  const base = median(samples['node -e 0']);
  console.log(
    `startup, median of ${runs} runs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
  );
  let failed = false;
  for (const name of Object.keys(cases)) {
    const m = median(samples[name]);
    const ratio = m / base;
    const target = name.endsWith(', compile cache') ? targets[name.replace(', compile cache', '')] : undefined;
    const verdict =
      name === 'node -e 0'
        ? 'baseline'
        : target === undefined
          ? ''
          : ratio <= target
            ? `ok (target <= ${target}x)`
            : `OVER target ${target}x`;
    if (target !== undefined && ratio > target) failed = true;
    console.log(`${name.padEnd(30)} ${m.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  ${verdict}`);
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(home, { recursive: true, force: true });
}
