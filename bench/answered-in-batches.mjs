#!/usr/bin/env node
// Peak memory of a big list whose every address the service answered, as it answers: in batches of 50, each batch
// its own time, an answer in ten invalid (issue 33, item 5: within 300 MB at 10M rows for every mode). `--local`
// over the account's cache, and `--local` over the list's journal, against `--local` with nothing answered, in the
// same run. BENCH_ROWS (default 10,000,000; the list spreads over 10,000 `.bench` domains); BENCH_ROOT runs another
// build (a checkout with its own dist/). Fills a cache and a journal in bench/tmp first (about 3 minutes at 10M).
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { generatedList, mb, measure, root, startDns } from './lib.mjs';

const rows = Number(process.env.BENCH_ROWS ?? 10_000_000);
const build = process.env.BENCH_ROOT ?? root;
const dist = (path) => join(root, 'dist', path);
const file = generatedList(rows, { name: `export-${rows}-10000.csv`, domains: 10_000 });
const cleanUrl = 'http://127.0.0.1:9';
const token = 'bench-token-0123456789abcdef';
const TARGET = 300 * 2 ** 20;

const [{ openInput }, { scanInput }, { accountKey }, { accountFiles }, { SqliteVerdictCache }, lines] =
  await Promise.all([
    import(dist('clean/scan/input/index.js')),
    import(dist('clean/scan/scan.js')),
    import(dist('clean/state/account-key.js')),
    import(dist('clean/state/disk/paths.js')),
    import(dist('clean/state/disk/sqlite-verdict-cache.js')),
    import(dist('clean/state/disk/journal-lines.js')),
  ]);

/** Each batch of 50 of the list's unique addresses, as the service answers them, to `keep` (a promise, awaited). */
async function answerInBatches(spoolDir, keep) {
  const layout = await openInput({ path: file, stdin: process.stdin, spoolDir });
  const scan = await scanInput(layout, { spoolDir });
  const start = Date.now() - 86_400_000;
  const batch = [];
  let n = 0;
  for (const key of scan.unique) {
    const checkedAt = new Date(start + Math.floor(n / 50) * 1000).toISOString();
    const bad = n++ % 10 === 3;
    batch.push({
      key,
      status: bad ? 'invalid' : 'valid',
      valid: !bad,
      disposable: false,
      validDomain: true,
      reason: bad ? 'rejected' : '',
      checkedAt,
      serviceStatus: bad ? 'undeliverable' : 'deliverable',
    });
    if (batch.length === 50) await keep(batch.splice(0));
  }
  if (batch.length > 0) await keep(batch);
  const fingerprint = layout.fingerprint;
  scan.release();
  await layout.cleanup();
  return { unique: n, fingerprint };
}

function home(name) {
  const dir = join(root, 'bench', 'tmp', `answered-${rows}-${name}`);
  return { dir, dataDir: join(dir, 'data'), filled: join(dir, 'filled') };
}

async function fillCacheHome() {
  const h = home('cache');
  if (existsSync(h.filled)) return h;
  rmSync(h.dir, { recursive: true, force: true });
  const cache = new SqliteVerdictCache(accountFiles(h.dataDir, accountKey(cleanUrl, undefined, token)).cache);
  const waiting = [];
  const { unique } = await answerInBatches(join(h.dir, 'spool'), async (batch) => {
    waiting.push(...batch);
    if (waiting.length >= 20_000) await cache.store(waiting.splice(0));
  });
  await cache.store(waiting);
  await cache.close();
  mkdirSync(h.filled);
  console.error(
    `cache: ${unique.toLocaleString('en-US')} answers in ${Math.ceil(unique / 50).toLocaleString('en-US')} batches`,
  );
  return h;
}

async function fillJournalHome() {
  const h = home('journal');
  if (existsSync(h.filled)) return h;
  rmSync(h.dir, { recursive: true, force: true });
  const text = [];
  const spool = join(h.dir, 'spool');
  mkdirSync(spool, { recursive: true });
  const out = join(h.dir, 'journal.tmp');
  const fd = openSync(out, 'w', 0o600);
  const { unique, fingerprint } = await answerInBatches(spool, async (batch) => {
    text.push(`${lines.batchLine(batch)}\n`);
    if (text.length === 2_000) writeSync(fd, text.splice(0).join(''));
  });
  writeSync(fd, text.join(''));
  closeSync(fd);
  const path = accountFiles(h.dataDir, accountKey(cleanUrl, undefined, token)).journal(fingerprint);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  renameSync(out, path);
  mkdirSync(h.filled);
  console.error(
    `journal: ${unique.toLocaleString('en-US')} answers in ${Math.ceil(unique / 50).toLocaleString('en-US')} batches`,
  );
  return h;
}

const homes = { nothing: home('nothing'), cache: await fillCacheHome(), journal: await fillJournalHome() };
const dns = await startDns((name) => name.endsWith('.bench'));
const runs = [
  ['--local, nothing answered', homes.nothing],
  ['--local, every address in the cache', homes.cache],
  ['--local, every address in the journal', homes.journal],
];
console.log(
  `\n${rows.toLocaleString('en-US')} rows, node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| run | wall | CPU | peak | peak / nothing answered |');
console.log('|---|---|---|---|---|');
let baseline;
for (const [name, h] of runs) {
  mkdirSync(h.dir, { recursive: true });
  const env = {
    MAILCLEAN_CONFIG_DIR: join(h.dir, 'config'),
    MAILCLEAN_DATA_DIR: h.dataDir,
    MAILCLEAN_CLEAN_URL: cleanUrl,
    MAILCLEAN_CLEAN_TOKEN: token,
    MAILCLEAN_DNS_SERVERS: dns.server,
  };
  const args = [join(build, 'bin', 'mailclean.js'), 'clean', file, '--local', '-o', join(h.dir, 'out.csv')];
  const r = await measure(args, { env });
  if (r.code !== 0) throw new Error(`${name}: exit ${r.code}\n${r.stderr.slice(-2000)}`);
  baseline ??= r.rss;
  const over = r.rss > TARGET ? ' OVER' : '';
  console.log(
    `| ${name} | ${(r.ms / 1000).toFixed(1)} s | ${(r.cpuMs / 1000).toFixed(1)} s | ${mb(r.rss)}${over} | ${(r.rss / baseline).toFixed(2)}x |`,
  );
  rmSync(join(h.dir, 'out.csv'), { force: true });
}
console.log('target: every peak within 300 MB');
dns.close();
