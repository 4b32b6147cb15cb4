#!/usr/bin/env node
// (a) `clean --dry-run` over a generated CSV against a plain csv-parse -> csv-stringify pass over the same file,
// alternating runs in one session. Targets: rows/s ratio >= 1.0, peak RSS <= 250 MB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedList, mb, measure, root } from './lib.mjs';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const file = generatedList(rows);
const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };

const baseline = [];
const cli = [];
for (let i = 0; i < rounds; i++) {
  baseline.push(await measure([join(root, 'bench', 'csv-baseline.mjs'), file]));
  const run = await measure([join(root, 'bin', 'mailclean.js'), 'clean', file, '--dry-run', '--json'], { env });
  if (run.code !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  cli.push(run);
}
rmSync(home, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// Rounds alternate, so each pair saw the same machine; the median of the per-round ratios resists a noisy neighbour.
const wallRatio = median(cli.map((r, i) => baseline[i].ms / r.ms));
const cpuRatio = median(cli.map((r, i) => baseline[i].cpuMs / r.cpuMs));
const base = median(baseline.map((r) => r.ms));
const ours = median(cli.map((r) => r.ms));
const peak = Math.max(...cli.map((r) => r.rss));
const basePeak = Math.max(...baseline.map((r) => r.rss));
const rate = (ms) => Math.round(rows / (ms / 1000)).toLocaleString('en-US');
console.log(
  `clean --dry-run on ${rows.toLocaleString('en-US')} rows, ${rounds} alternating rounds, node ${process.version}`,
);
console.log(`csv-parse -> csv-stringify  ${(base / 1000).toFixed(2)} s  ${rate(base)} rows/s  peak ${mb(basePeak)}`);
console.log(`mailclean clean --dry-run   ${(ours / 1000).toFixed(2)} s  ${rate(ours)} rows/s  peak ${mb(peak)}`);
console.log(
  `rows/s ratio, ours / baseline (median of rounds): wall ${wallRatio.toFixed(2)}x, CPU ${cpuRatio.toFixed(2)}x  ${wallRatio >= 1 ? 'ok' : 'UNDER'} (target >= 1.0x)`,
);
console.log(`peak RSS ${mb(peak)}  ${peak <= 250 * 2 ** 20 ? 'ok' : 'OVER'} (target <= 250 MB)`);
