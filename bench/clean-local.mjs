#!/usr/bin/env node
// `clean --local` and `clean --dry-run` on exports of 1M, 3M and 10M rows over 10,000 distinct domains, against a DNS
// server on 127.0.0.1 started here, each timed against a csv-parse -> csv-stringify pass over the same file in
// alternating rounds of one run, and against Python's csv.reader -> csv.writer copy (csv-copy.py, issue 33's floor).
// Targets: peak RSS <= 300 MB at every size for both (issue 18); --local <= 1.3x the pass (issue 18) and <= 1.0x
// the Python copy (issue 33); the dry run at least 1.5x faster than the pass; one DNS query per domain.
// BENCH_ROWS=1000000 (a comma-separated list) measures fewer sizes; BENCH_ROUNDS rounds each (default 1). BENCH_BEFORE:
// another build (a checkout with its own bin/ and dist/), whose --local runs in every round too, for before/after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedList, mb, measure, measurePython, root, startDns } from './lib.mjs';

const sizes = (process.env.BENCH_ROWS ?? '1000000,3000000,10000000').split(',').map(Number);
const domains = Number(process.env.BENCH_DOMAINS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const PEAK_LIMIT = 300 * 2 ** 20;

// Every bench domain takes mail.
const dns = await startDns((name) => name.endsWith('.bench'));
const { asked, server } = dns;

const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };
const bin = join(root, 'bin', 'mailclean.js');
const beforeBin = process.env.BENCH_BEFORE && join(process.env.BENCH_BEFORE, 'bin', 'mailclean.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
let failed = false;

console.log(
  `clean --local and --dry-run, ${domains.toLocaleString('en-US')} distinct domains, ${rounds} round(s) a size, node ${process.version}`,
);
console.log(
  '| rows | pass | pass peak | python copy | python peak | --dry-run / pass | dry-run peak | --local / pass | --local / python | --local / python CPU | --local peak | DNS queries |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
try {
  for (const rows of sizes) {
    // The dry-run bench's export (10 columns, quoting, line breaks in fields, duplicates, blanks) over the domains.
    const file = generatedList(rows, { name: `export-${rows}-${domains}.csv`, domains });
    const pass = [];
    const dry = [];
    const local = [];
    const python = [];
    const before = [];
    let dns = '';
    for (let i = 0; i < rounds; i++) {
      pass.push(await measure([join(root, 'bench', 'csv-baseline.mjs'), file]));
      const p = await measurePython([join(root, 'bench', 'csv-copy.py'), file, join(home, 'copy.csv')]);
      if (p.code !== 0) throw new Error(p.stderr);
      python.push(p);
      const d = await measure([bin, 'clean', file, '--dry-run', '--json'], { env });
      if (d.code !== 0) throw new Error(d.stderr);
      dry.push(d);
      asked.clear();
      const l = await measure([bin, 'clean', file, '--local', '--dns-server', server, '-o', join(home, 'out.csv')], {
        env,
      });
      if (l.code !== 0) throw new Error(l.stderr);
      local.push(l);
      dns = dnsVerdict();
      if (beforeBin) {
        const b = await measure(
          [beforeBin, 'clean', file, '--local', '--dns-server', server, '-o', join(home, 'out.csv')],
          {
            env,
          },
        );
        if (b.code !== 0) throw new Error(b.stderr);
        before.push(b);
      }
    }
    const dryRatio = median(dry.map((r, i) => r.ms / pass[i].ms));
    const localRatio = median(local.map((r, i) => r.ms / pass[i].ms));
    const floorRatio = median(local.map((r, i) => r.ms / python[i].ms));
    const floorCpu = median(local.map((r, i) => r.cpuMs / python[i].cpuMs));
    const dryPeak = Math.max(...dry.map((r) => r.rss));
    const localPeak = Math.max(...local.map((r) => r.rss));
    const mark = (ok) => (ok ? '' : ' OVER');
    failed ||= dryPeak > PEAK_LIMIT || localPeak > PEAK_LIMIT || dns.includes('MISMATCH');
    console.log(
      `| ${rows.toLocaleString('en-US')} | ${seconds(median(pass.map((r) => r.ms)))} | ${mb(Math.max(...pass.map((r) => r.rss)))} ` +
        `| ${seconds(median(python.map((r) => r.ms)))} | ${mb(Math.max(...python.map((r) => r.rss)))} ` +
        `| ${dryRatio.toFixed(2)}x${mark(dryRatio <= 1 / 1.5)} | ${mb(dryPeak)}${mark(dryPeak <= PEAK_LIMIT)} ` +
        `| ${localRatio.toFixed(2)}x${mark(localRatio <= 1.3)} | ${floorRatio.toFixed(2)}x${mark(floorRatio <= 1)} | ${floorCpu.toFixed(2)}x | ${mb(localPeak)}${mark(localPeak <= PEAK_LIMIT)} | ${dns} |`,
    );
    // Each round's own ratios, this build's and the other's, against the Python copy of the same round.
    const ratios = (runs) =>
      runs.map(
        (r, i) => `${(r.ms / python[i].ms).toFixed(2)}x / ${(r.cpuMs / python[i].cpuMs).toFixed(2)}x ${mb(r.rss)}`,
      );
    if (beforeBin)
      console.log(
        `  --local / python, wall / CPU, peak, by round: this ${ratios(local).join('; ')}; before ${ratios(before).join('; ')}`,
      );
  }
} finally {
  dns.close();
  rmSync(home, { recursive: true, force: true });
}
console.log(
  'targets: --dry-run <= 0.67x the pass (1.5x faster), --local <= 1.3x the pass and <= 1.0x the python copy, both peaks <= 300 MB; DNS: one query per distinct domain',
);
process.exitCode = failed ? 1 : 0;

/**
 * One query per distinct domain of the list. The engine's own other questions (the canary that tells whether DNS
 * answers at all, a TLD it checks before believing "no such domain") and any name asked twice are named, not
 * hidden in the count.
 */
function dnsVerdict() {
  const bench = [...asked].filter(([q]) => q.endsWith('.bench'));
  const names = new Set(bench.map(([q]) => q.split(' ')[1]));
  const queries = bench.reduce((sum, [, n]) => sum + n, 0);
  const again = bench.filter(([, n]) => n > 1).map(([q, n]) => `${q} x${n}`);
  const own = [...asked].filter(([q]) => !q.endsWith('.bench')).map(([q, n]) => `${q}${n > 1 ? ` x${n}` : ''}`);
  const ok = names.size === domains && queries === domains;
  return `${queries.toLocaleString('en-US')} for ${names.size.toLocaleString('en-US')} domains ${ok ? 'ok' : 'MISMATCH'}${again.length ? `; asked again: ${again.slice(0, 5).join(', ')}` : ''}; its own: ${own.join(', ') || 'none'}`;
}
