#!/usr/bin/env node
// Signed in to the cleaning service: `clean --dry-run` with the service and its precheck (the cache skipped with
// --max-age 0), `clean --local` on a list whose every address is in the verdict cache (a token and a clean-url in the
// environment; nothing is sent), and a run that sends to the sandbox until --max-spend 1000 (20 requests), the cache
// skipped, so that every other address is still to send. Each is timed against a csv-parse -> csv-stringify pass over
// the same file in the same round. Target (issue 18): peak RSS <= 300 MB, whatever the list's size. BENCH_ROWS
// (default 1,000,000); BENCH_ROOT runs another build (a checkout with its own dist/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillCache, generatedList, root as here, mb, measure, registerCleaning, startDns } from './lib.mjs';

const root = process.env.BENCH_ROOT ?? here;

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PEAK_LIMIT = 300 * 2 ** 20;
const file = generatedList(rows, { name: `export-${rows}-10000.csv`, domains: 10_000 });
const dns = await startDns((name) => name.endsWith('.bench'));
const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const cleanUrl = 'http://127.0.0.1:9';
const token = 'bench-token-0123456789abcdef';
const env = {
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
  MAILCLEAN_CLEAN_URL: cleanUrl,
  MAILCLEAN_CLEAN_TOKEN: token,
  MAILCLEAN_DNS_SERVERS: dns.server,
};
const bin = join(root, 'bin', 'mailclean.js');
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));
const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 10_000, windowMs: 1_000 } });
const sender = {
  MAILCLEAN_CONFIG_DIR: join(home, 'sender', 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'sender', 'data'),
  MAILCLEAN_API_URL: sandbox.url,
  MAILCLEAN_CLEAN_URL: sandbox.url,
  MAILCLEAN_DNS_SERVERS: dns.server,
};
let failed = false;
try {
  // Every unique address of the list in the account's cache, as a service run would have left it.
  const { unique } = await fillCache(file, {
    dataDir: env.MAILCLEAN_DATA_DIR,
    cleanUrl,
    token,
    spoolDir: join(home, 'spool'),
  });

  const pass = await measure([join(root, 'bench', 'csv-baseline.mjs'), file]);
  const dry = await measure([bin, 'clean', file, '--dry-run', '--max-age', '0', '--json', 'precheckSaves,toSend'], {
    env,
    stdout: 'pipe',
  });
  const local = await measure([bin, 'clean', file, '--local', '-o', join(home, 'out.csv')], { env });
  await registerCleaning(bin, sender);
  const sent = await measure(
    [bin, 'clean', file, '-o', join(home, 'sent.csv'), '--max-age', '0', '--max-spend', '1000', '--yes'],
    { env: sender },
  );
  for (const run of [dry, local]) if (run.code !== 0) throw new Error(run.stderr);
  // Stopped at --max-spend: exit 3, the rest of the list written as unchecked.
  if (sent.code !== 3 || sandbox.stats().addressesCharged !== 1_000)
    throw new Error(`the sending run: exit ${sent.code}, ${sent.stderr}`);
  console.log(
    `signed in, ${rows.toLocaleString('en-US')} rows, ${unique.toLocaleString('en-US')} unique addresses, node ${process.version}`,
  );
  console.log(`| run | wall | / pass | peak |`);
  console.log('|---|---|---|---|');
  const line = (name, run) => {
    const over = run.rss > PEAK_LIMIT;
    failed ||= over;
    console.log(
      `| ${name} | ${(run.ms / 1000).toFixed(2)} s | ${(run.ms / pass.ms).toFixed(2)}x | ${mb(run.rss)}${over ? ' OVER' : ''} |`,
    );
  };
  line('csv-parse -> csv-stringify', pass);
  line('--dry-run, service and precheck', dry);
  line('--local, every address cached', local);
  line('sending until --max-spend 1000', sent);
  console.log('target: every peak <= 300 MB');
} finally {
  await sandbox.close();
  dns.close();
  rmSync(home, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
