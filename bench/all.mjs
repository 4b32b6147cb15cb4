#!/usr/bin/env node
// `npm run bench`: every benchmark in turn, each to the end even when one misses its target, then the list of those
// that did (exit 1), so that one figure over its target does not hide the others.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './lib.mjs';

const BENCHES = [
  'startup',
  'install-size',
  'clean-rate',
  'clean-dryrun',
  'clean-local',
  'clean-offline',
  'xlsx',
  'precheck',
  'dns-latency',
  'signed-in',
  'service-run',
  'engine',
  'typo',
  'cache',
  'shared',
  'concurrent-runs',
  'soak',
];

const missed = [];
for (const name of BENCHES) {
  console.log(`\n## ${name}`);
  const run = spawnSync(process.execPath, [join(root, 'bench', `${name}.mjs`)], { stdio: 'inherit' });
  if (run.status !== 0) missed.push(`${name} (exit ${run.status ?? run.signal})`);
}
console.log(missed.length === 0 ? '\nevery benchmark met its target' : `\nmissed their target: ${missed.join(', ')}`);
process.exitCode = missed.length === 0 ? 0 : 1;
