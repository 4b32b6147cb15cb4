#!/usr/bin/env node
// Startup cost of `mailclean --version` and `mailclean --help`, as ratios to a bare `node -e 0` measured in the
// same run, interleaved so that machine noise hits all three alike. Needs a build (npm ci runs it).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';

const bin = fileURLToPath(new URL('../bin/mailclean.js', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 21);
const cases = {
  'node -e 0': ['-e', '0'],
  'mailclean --version': [bin, '--version'],
  'mailclean --help': [bin, '--help'],
};
const targets = { 'mailclean --version': 1.3, 'mailclean --help': 1.5 };

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const res = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  if (res.status !== 0) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// One untimed round warms the file cache and the compile cache.
for (const args of Object.values(cases)) timeOnce(args);
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < runs; i++) for (const [name, args] of Object.entries(cases)) samples[name].push(timeOnce(args));

const base = median(samples['node -e 0']);
console.log(`startup, median of ${runs} runs, node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`);
let failed = false;
for (const name of Object.keys(cases)) {
  const m = median(samples[name]);
  const ratio = m / base;
  const target = targets[name];
  const verdict = target === undefined ? 'baseline' : ratio <= target ? `ok (target <= ${target}x)` : `OVER target ${target}x`;
  if (target !== undefined && ratio > target) failed = true;
  console.log(`${name.padEnd(22)} ${m.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x  ${verdict}`);
}
process.exitCode = failed ? 1 : 0;
