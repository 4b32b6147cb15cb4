#!/usr/bin/env node
// `clean --local` with DNS unreachable (a resolver on 127.0.0.1 that nothing answers on, so every query is refused)
// against `clean --dry-run` on the same 50,000-row export, in alternating rounds of one run. Once DNS is known
// unreachable the engine stops asking: the run costs what reading, judging and writing cost. Target <= 2x the dry run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedList, mb, measure, root } from './lib.mjs';

const rows = Number(process.env.BENCH_ROWS ?? 50_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const file = generatedList(rows);
const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };
const bin = join(root, 'bin', 'mailclean.js');
const dry = [];
const offline = [];
try {
  for (let i = 0; i < rounds; i++) {
    const d = await measure([bin, 'clean', file, '--dry-run', '--json'], { env });
    if (d.code !== 0) throw new Error(d.stderr);
    dry.push(d);
    const out = join(home, 'out.csv');
    const o = await measure([bin, 'clean', file, '--local', '--dns-server', '127.0.0.1:9', '-o', out], { env });
    if (o.code !== 0) throw new Error(o.stderr);
    offline.push(o);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = median(offline.map((r, i) => r.ms / dry[i].ms));
const seconds = (runs) => `${(median(runs.map((r) => r.ms)) / 1000).toFixed(2)} s`;
console.log(
  `clean --local with DNS unreachable on ${rows.toLocaleString('en-US')} rows, ${rounds} alternating rounds, node ${process.version}`,
);
console.log(`clean --dry-run            ${seconds(dry)}  peak ${mb(Math.max(...dry.map((r) => r.rss)))}`);
console.log(`clean --local, DNS refused ${seconds(offline)}  peak ${mb(Math.max(...offline.map((r) => r.rss)))}`);
console.log(
  `time, offline / dry run (median of rounds): ${ratio.toFixed(2)}x  ${ratio <= 2 ? 'ok' : 'OVER'} (target <= 2x)`,
);
