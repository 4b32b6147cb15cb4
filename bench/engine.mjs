#!/usr/bin/env node
// The validation engine without DNS (what the sandbox and `clean --local` spend per address before any lookup):
// verifyLocal's throughput against the syntax check alone, measured in the same run. Target: >= 50,000
// addresses/s, a million rows in under 20 s.
import { join } from 'node:path';
import { root } from './lib.mjs';

const { Engine, checkSyntax } = await import(join(root, 'dist', 'verify', 'index.js'));
const N = Number(process.env.BENCH_ADDRESSES ?? 200_000);
const addresses = Array.from({ length: N }, (_, i) => `user${i}@domain${i % 2000}.example.com`);

function rate(run) {
  const started = performance.now();
  run();
  return N / ((performance.now() - started) / 1000);
}

const engine = new Engine({ dns: { enabled: false } });
const rounds = [];
for (let round = 0; round < 5; round++) {
  const syntax = rate(() => {
    for (const a of addresses) checkSyntax(a);
  });
  const local = rate(() => {
    for (const a of addresses) engine.verifyLocal(a);
  });
  rounds.push({ syntax, local });
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const syntax = median(rounds.map((r) => r.syntax));
const local = median(rounds.map((r) => r.local));
const fmt = (x) => Math.round(x).toLocaleString('en-US');
console.log(`engine without DNS, ${N.toLocaleString('en-US')} addresses x 5 rounds (medians), node ${process.version}`);
console.log(`checkSyntax alone   ${fmt(syntax)} addresses/s  (baseline 1.00x)`);
console.log(
  `engine.verifyLocal  ${fmt(local)} addresses/s  (${(local / syntax).toFixed(2)}x the syntax check) ${local >= 50_000 ? 'ok' : 'UNDER'} (target >= 50,000/s)`,
);
process.exitCode = local >= 50_000 ? 0 : 1;
