#!/usr/bin/env node
// (b) `clean` of 10,000 unique addresses against the sandbox limited to 50 requests per 5 s: wall time as a ratio to
// the true minimum, and the number of 429 answers. Targets: <= 1.03x, zero 429s, and the first request within
// 250 ms of the start after reading the list (issue 33; on a quiet machine: node -e 0 is timed in the same run to show
// how busy it is). The first window is free: the first 50 requests go at once, and each further 50 one window later,
// so R requests take at least (ceil(R/50) - 1) x 5 s.
// The same round also times a list of one window's worth (50 requests, no wait): what this client needs besides the
// waiting (starting, reading, the precheck, sending, writing), so the time lost to pacing itself can be told apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, registerCleaning, root, startDns } from './lib.mjs';

const addresses = Number(process.env.BENCH_ADDRESSES ?? 10_000);
const rate = { requests: 50, windowMs: 5_000 };
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));
// The precheck (on by default) asks DNS about the list's 97 domains: they all take mail, so every address is sent.
const dns = await startDns((name) => /^example\d+\.com$/.test(name));
// BENCH_BIN: another build's bin, such as the release's (`npm run release -- --out DIR`, then DIR/package/bin/...).
const bin = process.env.BENCH_BIN ?? join(root, 'bin', 'mailclean.js');

/**
 * A clean of `count` addresses by a new account on a new sandbox: its wall time, how long its first request took
 * to arrive, the sandbox's stats. `firstOnly`: the run sends one request (--max-spend 50) and says with --debug how
 * long reading the list took (not in the timed rounds: --debug logs every request).
 */
async function round(count, { firstOnly = false } = {}) {
  // Each request's arrival, as the sandbox counted it (read from its stats as each request is logged).
  const arrivals = [];
  const sandbox = await startSandbox({
    port: 0,
    plan: 'unlimited',
    rate,
    log: (line) => {
      if (!line.includes('/clean')) return;
      const { cleanRequests, lastArrivalAt } = sandbox.stats();
      while (arrivals.length < cleanRequests - 1) arrivals.push(Number.NaN);
      if (arrivals.length < cleanRequests) arrivals.push(lastArrivalAt);
    },
  });
  const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
  const env = {
    MAILCLEAN_CONFIG_DIR: join(home, 'config'),
    MAILCLEAN_DATA_DIR: join(home, 'data'),
    MAILCLEAN_API_URL: sandbox.url,
    MAILCLEAN_CLEAN_URL: sandbox.url,
    MAILCLEAN_DNS_SERVERS: dns.server,
  };
  try {
    const input = join(home, 'list.csv');
    const lines = ['email,name'];
    for (let i = 0; i < count; i++) lines.push(`person${i}@example${i % 97}.com,Person ${i}`);
    writeFileSync(input, `${lines.join('\n')}\n`);
    // The sandbox lives in this process, so children are awaited, never run synchronously.
    await registerCleaning(bin, env);
    const startedAt = Date.now();
    const only = firstOnly ? ['--debug', '--max-spend', '50'] : [];
    const run = await measure([bin, 'clean', input, '-o', join(home, 'out.csv'), '--rate', '50/5s', '--yes', ...only], {
      env,
    });
    const read = /^debug: read .*: [\d,]+ rows in (\d+) ms$/m.exec(run.stderr);
    if (firstOnly ? !read || sandbox.stats().cleanRequests !== 1 : run.code !== 0)
      throw new Error(`clean exited ${run.code}: ${run.stderr}`);
    return {
      readMs: read ? Number(read[1]) : undefined,
      ms: run.ms,
      cpuMs: run.cpuMs,
      firstMs: sandbox.stats().firstArrivalAt - startedAt,
      stats: sandbox.stats(),
      arrivals,
    };
  } finally {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  }
}

try {
  const oneWindow = await round(rate.requests * 50);
  const full = await round(addresses);
  const reading = await round(addresses, { firstOnly: true });
  const afterRead = reading.firstMs - reading.readMs;
  const requests = Math.ceil(addresses / 50);
  const minimumMs = (Math.ceil(requests / rate.requests) - 1) * rate.windowMs;
  const { stats } = full;
  const ratio = full.ms / minimumMs;
  const paced = full.ms / (minimumMs + oneWindow.ms);
  console.log(
    `clean of ${addresses.toLocaleString('en-US')} unique addresses at 50 requests / 5 s, node ${process.version}`,
  );
  console.log(
    `requests ${stats.cleanRequests}, true minimum ${(minimumMs / 1000).toFixed(1)} s (the first window free), wall ${(full.ms / 1000).toFixed(2)} s, CPU ${Math.round(full.cpuMs)} ms (one window's round: ${Math.round(oneWindow.cpuMs)} ms)`,
  );
  const first = full.firstMs;
  const idle = await measure(['-e', '0']);
  const span = stats.lastArrivalAt - stats.firstArrivalAt;
  console.log(
    `start to first request ${first} ms (one window's round: ${oneWindow.firstMs} ms; node -e 0 here: ${Math.round(idle.ms)} ms); in a run sending one request, ${reading.firstMs} ms, of which reading the list ${reading.readMs} ms: ${afterRead} ms after reading it; first to last request ${(span / 1000).toFixed(2)} s (${(span / minimumMs).toFixed(3)}x the minimum); last request to exit ${Math.round(full.ms - first - span)} ms`,
  );
  // Each window's requests go a window after the matching ones of the window before (a slot frees W after its
  // answer), so the first window's spread repeats to the end; each window starts a margin and an answer's time late.
  const windows = [];
  for (let at = 0; at < full.arrivals.length; at += rate.requests)
    windows.push(full.arrivals.slice(at, at + rate.requests));
  const late = windows.slice(1).map((w, i) => Math.round(w[0] - windows[i][0] - rate.windowMs));
  console.log(
    `windows' spreads (first to last arrival) ${windows.map((w) => `${Math.round(w.at(-1) - w[0])}`).join(', ')} ms; each window's start after the one before, beyond 5 s: ${late.join(', ')} ms`,
  );
  console.log(
    `one window's worth (${(rate.requests * 50).toLocaleString('en-US')} addresses, ${rate.requests} requests, no wait) took ${(oneWindow.ms / 1000).toFixed(2)} s: against the minimum plus that, ${paced.toFixed(3)}x (the pacing's own cost)`,
  );
  console.log(
    `ratio ${ratio.toFixed(3)}x ${ratio <= 1.03 ? 'ok' : 'OVER'} (target <= 1.03x); 429 answers: ${stats.rateLimited} ${stats.rateLimited === 0 ? 'ok' : 'FAIL'}; most arrivals in any 5 s window: ${stats.maxArrivalsInAnyWindow}; first request after reading the list ${afterRead <= 250 ? 'ok' : 'OVER'} (target <= 250 ms)`,
  );
  process.exitCode = ratio <= 1.03 && stats.rateLimited === 0 && afterRead <= 250 ? 0 : 1;
} finally {
  dns.close();
}
