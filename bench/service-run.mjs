#!/usr/bin/env node
// A run that sends a whole list to the cleaning service (the sandbox on loopback, unlimited plan, a rate high enough
// that the client is what is measured): the precheck, the journal, the verdict cache, the claims and the limiter all
// at work, as a paying run uses them. Each is set against a `clean --dry-run` of the same list in the same round
// (the scan and the write pass alone). Target (issue 52, item 2): peak RSS <= 300 MB at any size; no address paid
// twice. BENCH_ROWS (comma-separated, default 1000000; 10000000 takes an hour here), BENCH_ROOT runs another build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedList, root as here, mb, measure, registerCleaning, startDns } from './lib.mjs';

const root = process.env.BENCH_ROOT ?? here;
const sizes = (process.env.BENCH_ROWS ?? '1000000').split(',').map(Number);
const PEAK_LIMIT = 300 * 2 ** 20;
const bin = join(root, 'bin', 'mailclean.js');
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));
// Every tenth domain does not exist, so the precheck decides some addresses and the rest are sent.
const dns = await startDns((name) => name.endsWith('.bench') && !/^d\d*0\.bench$/.test(name));
const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 100_000, windowMs: 1_000 } });
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
let failed = false;

console.log(`a run that sends the whole list, against its dry run; node ${process.version}`);
console.log('| rows | unique | sent | dry run: wall, peak | service run: wall, CPU, peak | peak / dry run |');
console.log('|---|---|---|---|---|---|');
try {
  for (const rows of sizes) {
    const file = generatedList(rows, { name: `export-${rows}-10000.csv`, domains: 10_000 });
    const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-service-'));
    try {
      const env = {
        MAILCLEAN_CONFIG_DIR: join(home, 'config'),
        MAILCLEAN_DATA_DIR: join(home, 'data'),
        MAILCLEAN_API_URL: sandbox.url,
        MAILCLEAN_CLEAN_URL: sandbox.url,
        MAILCLEAN_DNS_SERVERS: dns.server,
      };
      await registerCleaning(bin, env, `service${rows}@example.com`);
      const dry = await measure([bin, 'clean', file, '--dry-run', '--max-age', '0'], { env });
      if (dry.code !== 0) throw new Error(`the dry run: exit ${dry.code}, ${dry.stderr}`);
      const charged = sandbox.stats().addressesCharged;
      const args = ['clean', file, '-o', join(home, 'out.csv'), '--yes', '--rate', '100000/1s', '--concurrency', '8'];
      const run = await measure([bin, ...args], { env });
      if (run.code !== 0) throw new Error(`the service run: exit ${run.code}, ${run.stderr.slice(-2000)}`);
      const sent = sandbox.stats().addressesCharged - charged;
      const unique = Number(/([\d,]+) unique addresses/.exec(run.stderr)?.[1].replaceAll(',', '') ?? NaN);
      const decided = Number(/saved ([\d,]+) addresses/.exec(run.stderr)?.[1].replaceAll(',', '') ?? 0);
      // Paid once: every unique address either decided by the precheck or sent, none both, none twice.
      const paidOnce = sent + decided === unique;
      const over = run.rss > PEAK_LIMIT;
      failed ||= over || !paidOnce;
      console.log(
        `| ${rows.toLocaleString('en-US')} | ${unique.toLocaleString('en-US')} | ${sent.toLocaleString('en-US')}${paidOnce ? '' : ' PAID TWICE OR MISSED'} | ${seconds(dry.ms)}, ${mb(dry.rss)} | ${seconds(run.ms)}, ${seconds(run.cpuMs)}, ${mb(run.rss)}${over ? ' OVER' : ''} | ${(run.rss / dry.rss).toFixed(2)}x |`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  console.log(`target: peak <= ${mb(PEAK_LIMIT)} at every size; every unique address decided or sent exactly once`);
} finally {
  await sandbox.close();
  dns.close();
}
process.exitCode = failed ? 1 : 0;
