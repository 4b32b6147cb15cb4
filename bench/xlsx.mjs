#!/usr/bin/env node
// Workbooks in and out of `clean --local` (issue 31), against a DNS server on 127.0.0.1 started here: on the same
// export of 100,000 and 1,000,000 rows (10 columns, 1,000 domains) as CSV and as the workbook Excel would save
// (gen-xlsx.mjs), each of CSV->CSV, XLSX->CSV, CSV->XLSX and XLSX->XLSX timed as a ratio to a csv-parse ->
// csv-stringify pass over the CSV in the same round, with its peak RSS; then what loading the workbook code costs
// beyond what a CSV run loads, and the peak RSS of refusing two bombs (600 MB in one cell, 1 GB of whitespace).
// Targets: every peak <= 300 MB (1M rows read and written streaming; bombs refused, exit 2); the import <= 100 ms.
// BENCH_ROWS=100000 (a comma-separated list; empty: none) measures fewer sizes; BENCH_ROUNDS rounds each (default 1).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generatedList, mb, measure, root, startDns } from './lib.mjs';

const sizes = (process.env.BENCH_ROWS ?? '100000,1000000').split(',').filter(Boolean).map(Number);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const DOMAINS = 1000;
const PEAK_LIMIT = 300 * 2 ** 20;
const IMPORT_LIMIT_MS = 100;

const dns = await startDns((name) => name.endsWith('.bench'));
const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };
const bin = join(root, 'bin', 'mailclean.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
let failed = false;

/** A file made once in bench/tmp by gen-xlsx.mjs, then reused. */
function generated(name, args) {
  const file = join(root, 'bench', 'tmp', name);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const made = spawnSync(process.execPath, [join(root, 'bench', 'gen-xlsx.mjs'), ...args, file], {
      stdio: 'inherit',
    });
    if (made.status !== 0) process.exit(1);
  }
  return file;
}

const clean = async (input, output) => {
  const run = await measure([bin, 'clean', input, '--local', '--dns-server', dns.server, '-o', join(home, output)], {
    env,
  });
  if (run.code !== 0) throw new Error(run.stderr);
  return run;
};

console.log(
  `clean --local, CSV and XLSX in and out, ${DOMAINS} domains, ${rounds} round(s) a size, node ${process.version}`,
);
console.log('each run: wall / CPU time as ratios to the pass of the same round, and its peak RSS');
console.log('| rows | pass: wall, CPU, peak | CSV->CSV | XLSX->CSV | CSV->XLSX | XLSX->XLSX |');
console.log('|---|---|---|---|---|---|');
try {
  for (const rows of sizes) {
    const csv = generatedList(rows, { name: `export-${rows}-${DOMAINS}.csv`, domains: DOMAINS });
    const xlsx = generated(`export-${rows}-${DOMAINS}.xlsx`, ['list', csv]);
    const runs = { pass: [], cc: [], xc: [], cx: [], xx: [] };
    for (let i = 0; i < rounds; i++) {
      runs.pass.push(await measure([join(root, 'bench', 'csv-baseline.mjs'), csv]));
      runs.cc.push(await clean(csv, 'out.csv'));
      runs.xc.push(await clean(xlsx, 'out.csv'));
      runs.cx.push(await clean(csv, 'out.xlsx'));
      runs.xx.push(await clean(xlsx, 'out.xlsx'));
    }
    // Wall and CPU time, each as a ratio to the pass's: on a machine shared with others, CPU time moves less.
    const cell = (list) => {
      const ratio = median(list.map((r, i) => r.ms / runs.pass[i].ms));
      const cpu = median(list.map((r, i) => r.cpuMs / runs.pass[i].cpuMs));
      const peak = Math.max(...list.map((r) => r.rss));
      failed ||= peak > PEAK_LIMIT;
      return `${ratio.toFixed(2)}x / ${cpu.toFixed(2)}x, ${mb(peak)}${peak > PEAK_LIMIT ? ' OVER' : ''}`;
    };
    const pass = `${seconds(median(runs.pass.map((r) => r.ms)))}, ${seconds(median(runs.pass.map((r) => r.cpuMs)))}, ${mb(Math.max(...runs.pass.map((r) => r.rss)))}`;
    console.log(
      `| ${rows.toLocaleString('en-US')} | ${pass} | ${cell(runs.cc)} | ${cell(runs.xc)} | ${cell(runs.cx)} | ${cell(runs.xx)} |`,
    );
  }

  // What a workbook run loads beyond a CSV one, to read and to write (exceljs for both before issue 31), timed inside
  // one process after the CSV run's modules: the cost a workbook adds, without process start-up.
  const dist = (path) => JSON.stringify(new URL(`../dist/${path}`, import.meta.url).href);
  const csvRun = [dist('clean/scan/input/index.js'), dist('clean/write/formats/csv.js')];
  const ours = existsSync(join(root, 'dist', 'clean', 'scan', 'input', 'workbook', 'open.js'));
  const loads = ours
    ? { read: [dist('clean/scan/input/workbook/open.js')], write: [dist('clean/write/formats/xlsx.js')] }
    : { read: ['"exceljs"'], write: ['"exceljs"', dist('clean/write/formats/xlsx.js')] };
  for (const [what, modules] of Object.entries(loads)) {
    const imports = (list) => list.map((m) => `await import(${m});`).join(' ');
    const probe = `${imports(csvRun)} const t = performance.now(); const c = process.cpuUsage(); ${imports(modules)}
      const u = process.cpuUsage(c); console.log(performance.now() - t, (u.user + u.system) / 1000);`;
    const wall = [];
    const cpu = [];
    for (let i = 0; i < 11; i++) {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: root, encoding: 'utf8' });
      const [w, c] = run.stdout.trim().split(' ').map(Number);
      wall.push(w);
      cpu.push(c);
    }
    const cost = median(wall);
    failed ||= cost > IMPORT_LIMIT_MS;
    console.log(
      `loading the code to ${what} a workbook, after a CSV run's: ${cost.toFixed(0)} ms (CPU ${median(cpu).toFixed(0)} ms; median of 11)${cost > IMPORT_LIMIT_MS ? ' OVER' : ''}`,
    );
  }

  for (const what of ['cell', 'space']) {
    const bomb = generated(`bomb-${what}.xlsx`, ['bomb', what]);
    const run = await measure([bin, 'clean', bomb, '--dry-run'], { env });
    const over = run.rss > PEAK_LIMIT || run.code !== 2;
    failed ||= over;
    const said = run.stderr
      .split('\n')
      .filter((l) => l.startsWith('error:'))
      .join(' ');
    console.log(
      `bomb (${what}): exit ${run.code}, peak ${mb(run.rss)}, ${seconds(run.ms)}${over ? ' OVER' : ''}: ${said || run.stderr.slice(-200)}`,
    );
  }
} finally {
  dns.close();
  rmSync(home, { recursive: true, force: true });
}
console.log('targets: every peak <= 300 MB, bombs refused (exit 2), loading the workbook code <= 100 ms');
process.exitCode = failed ? 1 : 0;
