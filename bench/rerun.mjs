#!/usr/bin/env node
// A re-run of a fully answered list against a fresh `clean --dry-run` of it, in the same round (issue 33, item 2):
// the same file again (its answers from the list's journal), a copy of it (one row more, so another journal: its
// answers from the verdict cache) and the same file with --max-age 0 (the journal only, the cache never read).
// The list is first sent whole to the sandbox on loopback (--no-precheck, so that every answer is journaled and
// cached); a re-run must then send nothing. Each figure is a ratio to the dry run of its round (median of the
// rounds, with the CPU-time ratio beside the wall's). Targets: wall <= 1.2x, peak <= 1.3x; for the copy answered
// from the cache, wall <= 2.0x (issue 51: the cache is read through its one lookup, no early read beside the scan).
// BENCH_ROWS (comma-separated, default 100000,1000000), BENCH_ROUNDS (default 3); BENCH_ROOT runs another build
// (a checkout with its own dist/), BENCH_BEFORE a second one alternated with it in every round (before/after).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedList, root as here, mb, measure, registerCleaning, startDns } from './lib.mjs';

const builds = [{ name: 'this', root: process.env.BENCH_ROOT ?? here }];
if (process.env.BENCH_BEFORE) builds.unshift({ name: 'before', root: process.env.BENCH_BEFORE });
const sizes = (process.env.BENCH_ROWS ?? '100000,1000000').split(',').map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const WALL_TARGET = 1.2;
const COPY_WALL_TARGET = 2.0;
const PEAK_TARGET = 1.3;

const dns = await startDns((name) => name.endsWith('.bench'));
const { startSandbox } = await import(join(builds.at(-1).root, 'dist', 'sandbox', 'server.js'));
const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 100_000, windowMs: 1_000 } });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let failed = false;

/** The list with its first plain data row once more at the end: the same addresses, another fingerprint. */
function copyWithOneRowMore(file, copy) {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const row = lines.slice(1).find((line) => line.includes('@') && !line.includes('"'));
  writeFileSync(copy, `${text}${text.endsWith('\n') ? '' : '\n'}${row}\n`);
}

async function size(rows) {
  const file = generatedList(rows, { name: `export-${rows}-10000.csv`, domains: 10_000 });
  const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-rerun-'));
  try {
    const copy = join(home, 'copy.csv');
    copyWithOneRowMore(file, copy);
    const account = {
      MAILCLEAN_CONFIG_DIR: join(home, 'config'),
      MAILCLEAN_API_URL: sandbox.url,
      MAILCLEAN_CLEAN_URL: sandbox.url,
      MAILCLEAN_DNS_SERVERS: dns.server,
    };
    const bin = (build) => join(build.root, 'bin', 'mailclean.js');
    await registerCleaning(bin(builds[0]), account, `b${rows}@example.com`);
    // Each build answers the list once into its own data directory: the journal and the cache as it writes them.
    for (const build of builds) {
      build.env = { ...account, MAILCLEAN_DATA_DIR: join(home, `data-${build.name}`) };
      const first = await measure(
        [
          bin(build),
          'clean',
          file,
          '-o',
          join(home, 'first.csv'),
          '--no-precheck',
          '--yes',
          '--rate',
          '100000/1s',
          '--concurrency',
          '8',
        ],
        {
          env: build.env,
        },
      );
      if (first.code !== 0) throw new Error(`the first run (${build.name}): exit ${first.code}, ${first.stderr}`);
    }
    const charged = sandbox.stats().addressesCharged;
    const cases = [
      [
        'dry run (fresh account)',
        (b) => [bin(b), 'clean', file, '--dry-run'],
        (b) => ({ ...b.env, MAILCLEAN_DATA_DIR: join(home, `fresh-${b.name}`) }),
      ],
      ['re-run, from the journal', (b) => [bin(b), 'clean', file, '-o', join(home, 'again.csv')]],
      ['re-run of a copy, from the cache', (b) => [bin(b), 'clean', copy, '-o', join(home, 'copy-out.csv')]],
      ['re-run, --max-age 0', (b) => [bin(b), 'clean', file, '-o', join(home, 'again.csv'), '--max-age', '0']],
    ];
    const runs = new Map(builds.map((b) => [b.name, cases.map(() => [])]));
    for (let round = 0; round < rounds; round++) {
      for (const build of round % 2 ? [...builds].reverse() : builds) {
        for (const [i, [name, args, envOf]] of cases.entries()) {
          const run = await measure(args(build), { env: envOf ? envOf(build) : build.env });
          if (run.code !== 0) throw new Error(`${name} (${build.name}): exit ${run.code}, ${run.stderr}`);
          runs.get(build.name)[i].push(run);
          rmSync(join(home, `fresh-${build.name}`), { recursive: true, force: true });
        }
      }
    }
    if (sandbox.stats().addressesCharged !== charged)
      throw new Error('a re-run sent addresses: it was not fully answered');
    console.log(
      `\n${rows.toLocaleString('en-US')} rows, node ${process.version}, ${rounds} rounds, load ${loadAverage()}`,
    );
    console.log('| build | run | wall | CPU | peak | wall / dry run | CPU / dry run | peak / dry run |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const build of builds) {
      const [dry, ...reruns] = runs.get(build.name);
      const row = (name, of, wallTarget = WALL_TARGET) => {
        const ratio = (f) => median(of.map((r, i) => f(r) / f(dry[i])));
        const [wall, cpu, peak] = [ratio((r) => r.ms), ratio((r) => r.cpuMs), ratio((r) => r.rss)];
        const over = of !== dry && build.name === 'this' && (wall > wallTarget || peak > PEAK_TARGET);
        failed ||= over;
        console.log(
          `| ${build.name} | ${name} | ${(median(of.map((r) => r.ms)) / 1000).toFixed(2)} s | ${(median(of.map((r) => r.cpuMs)) / 1000).toFixed(2)} s | ${mb(median(of.map((r) => r.rss)))} | ${wall.toFixed(2)}x | ${cpu.toFixed(2)}x | ${peak.toFixed(2)}x${over ? ' OVER' : ''} |`,
        );
      };
      row(cases[0][0], dry);
      for (const [i, of] of reruns.entries()) row(cases[i + 1][0], of, i === 1 ? COPY_WALL_TARGET : WALL_TARGET);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function loadAverage() {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

try {
  for (const rows of sizes) await size(rows);
  console.log(
    `targets: a re-run's wall <= ${WALL_TARGET}x (the copy's ${COPY_WALL_TARGET}x) and peak <= ${PEAK_TARGET}x the dry run's`,
  );
} finally {
  await sandbox.close();
  dns.close();
}
process.exitCode = failed ? 1 : 0;
