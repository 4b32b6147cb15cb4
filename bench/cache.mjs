#!/usr/bin/env node
// The verdict cache (SQLite). (1) A 1M-row `clean --dry-run` whose addresses are all in a cache of 1M answers,
// against the same dry-run with the cache off (--max-age 0), alternating rounds: target <= 1.3x. (2) Bytes per
// cached address: target <= 120. (3) Kills during writes: a writer storing batches is SIGKILLed at random
// moments; every batch it reported committed must still be there, and the file must pass integrity_check.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillCache, mb, measure, root } from './lib.mjs';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const kills = Number(process.env.BENCH_KILLS ?? 20);
const dist = (path) => join(root, 'dist', path);
const work = join(root, 'bench', 'tmp');
mkdirSync(work, { recursive: true });
const file = join(work, `list-${rows}.csv`);
const { SqliteVerdictCache } = await import(dist('clean/state/disk/sqlite-verdict-cache.js'));
if (
  !existsSync(file) &&
  spawnSync(process.execPath, [join(root, 'bench', 'gen-csv.mjs'), String(rows), file], { stdio: 'inherit' }).status !==
    0
)
  process.exit(1);

const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const cleanUrl = 'http://127.0.0.1:9';
const token = 'bench-token-0123456789abcdef';
const env = {
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
  MAILCLEAN_CLEAN_URL: cleanUrl,
  MAILCLEAN_CLEAN_TOKEN: token,
};
try {
  // The cache holds every unique address of the list, topped up to a million answers.
  const { unique, stats } = await fillCache(file, {
    dataDir: env.MAILCLEAN_DATA_DIR,
    cleanUrl,
    token,
    spoolDir: join(home, 'spool'),
    total: 1_000_000,
  });

  const off = [];
  const on = [];
  for (let i = 0; i < rounds; i++) {
    off.push(
      await measure([join(root, 'bin', 'mailclean.js'), 'clean', file, '--dry-run', '--json', '--max-age', '0'], {
        env,
      }),
    );
    const run = await measure([join(root, 'bin', 'mailclean.js'), 'clean', file, '--dry-run', '--json'], {
      env,
      stdout: 'pipe',
    });
    if (run.code !== 0) throw new Error(run.stderr);
    on.push(run);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = median(on.map((r, i) => r.ms / off[i].ms));
  const perAddress = stats.bytes / stats.entries;
  console.log(
    `verdict cache (SQLite), ${rows.toLocaleString('en-US')} rows, ${unique.toLocaleString('en-US')} unique, ${stats.entries.toLocaleString('en-US')} cached answers, node ${process.version}`,
  );
  console.log(
    `dry-run, cache off   ${(median(off.map((r) => r.ms)) / 1000).toFixed(2)} s  peak ${mb(Math.max(...off.map((r) => r.rss)))}`,
  );
  console.log(
    `dry-run, cache on    ${(median(on.map((r) => r.ms)) / 1000).toFixed(2)} s  peak ${mb(Math.max(...on.map((r) => r.rss)))}`,
  );
  console.log(
    `ratio on / off (median of rounds) ${ratio.toFixed(2)}x  ${ratio <= 1.3 ? 'ok' : 'OVER'} (target <= 1.3x)`,
  );
  console.log(
    `store ${stats.bytes.toLocaleString('en-US')} bytes, ${perAddress.toFixed(1)} bytes per cached address  ${perAddress <= 120 ? 'ok' : 'OVER'} (target <= 120)`,
  );

  // Kills during writes.
  let lost = 0;
  let broken = 0;
  for (let k = 0; k < kills; k++) {
    const path = join(home, `kill-${k}.sqlite`);
    const writer = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      const { SqliteVerdictCache } = await import(${JSON.stringify(dist('clean/state/disk/sqlite-verdict-cache.js'))});
      const c = new SqliteVerdictCache(${JSON.stringify(path)});
      const at = new Date().toISOString();
      for (let b = 0; ; b++) {
        await c.store(Array.from({ length: 50 }, (_, i) => ({ key: 'k' + b + '-' + i + '@example.com', status: 'valid', valid: true, disposable: false, validDomain: true, reason: '', checkedAt: at })));
        process.stdout.write(b + '\\n');
      }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let committed = -1;
    writer.stdout.on('data', (d) => (committed = Number(String(d).trim().split('\\n').at(-1))));
    await new Promise((r) => setTimeout(r, 200 + Math.random() * 800));
    const reported = committed;
    writer.kill('SIGKILL');
    await new Promise((r) => writer.on('close', r));
    const reopened = new SqliteVerdictCache(path);
    const { entries } = await reopened.stats();
    await reopened.close();
    const check = spawnSync(
      process.execPath,
      [
        '--no-warnings',
        '-e',
        `const { DatabaseSync } = require('node:sqlite'); console.log(new DatabaseSync(${JSON.stringify(path)}).prepare('PRAGMA integrity_check').get().integrity_check)`,
      ],
      { encoding: 'utf8' },
    );
    if (check.stdout.trim() !== 'ok') broken++;
    if (entries < (reported + 1) * 50) lost++;
  }
  console.log(
    `kills during writes: ${kills}; committed batches lost: ${lost}; files failing integrity_check: ${broken}  ${lost === 0 && broken === 0 ? 'ok' : 'FAIL'} (a kill loses at most the batch in flight)`,
  );
  process.exitCode = ratio <= 1.3 && perAddress <= 120 && lost === 0 && broken === 0 ? 0 : 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}
