#!/usr/bin/env node
// (issue 30) How true the progress line's ETA is. A clean of 10,000 unique addresses against the sandbox limited to
// 50 requests per 5 s (at least 15 s), through the run service as the CLI drives it; every progress event's ETA is
// compared with the time the checking then really took to end (the last answer kept; writing the rows after it,
// about a second at this size, is not what the ETA shown while checking covers). Twice: a fresh run, and a resumed
// one (a first run stopped by --max-spend after 4,000 addresses, so the limiter's window is full when the second
// starts, as in the trial, where a resumed run showed "ETA 4m 51s" and ended in 6.2 s). Target: within 20%
// once a quarter of the run has passed (the "after the first minute" of a run of a few minutes), for every
// ETA shown while more than 2 s are left (below that a tenth of a second is 5%). BENCH_TRACE=1 prints each ETA and
// the truth.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { root } from './lib.mjs';

const dist = (path) => import(join(root, 'dist', path));
const { startSandbox } = await dist('sandbox/server.js');
const { CleaningClient } = await dist('api/cleaning.js');
const { HttpClient } = await dist('api/http.js');
const { ServiceChecker } = await dist('clean/check/service/service-checker.js');
const { runClean } = await dist('clean/run/run-clean.js');
const { openAccountState } = await dist('clean/state/open-state.js');

const addresses = Number(process.env.BENCH_ADDRESSES ?? 10_000);
const rate = { requests: 50, windowMs: 5_000 };

const discard = () => new Writable({ write: (_chunk, _encoding, done) => done() });

/** Runs one clean of `input`, returning its wall time and each progress event's ETA with when it was told. */
async function timedRun({ dir, input, state, client, url, maxSpend, earlierRun }) {
  const etas = [];
  let checkedAt = 0;
  const started = performance.now();
  const checker = new ServiceChecker({ state, client, service: url, rate, concurrency: 4, maxSpend });
  const emit = (event) => {
    if (event.type !== 'progress') return;
    const at = performance.now() - started;
    if (event.change.etaMs !== undefined) etas.push({ at, etaMs: event.change.etaMs });
    if (event.change.checked !== undefined) checkedAt = at;
  };
  const result = await runClean(
    {
      input,
      strict: false,
      outputs: { format: 'csv', stdout: discard() },
      dryRun: false,
      yes: true,
      earlierRun,
      maxAgeMs: 0,
      spoolDir: join(dir, 'spool'),
      signals: { stop: new AbortController().signal, abort: new AbortController().signal, exitCode: 130 },
    },
    checker,
    { emit },
  );
  return { ms: performance.now() - started, checkedMs: checkedAt, etas, result };
}

/** The ETAs told once a quarter of the run had passed and more than 2 s were left, as errors against the truth. */
function errorsOf({ checkedMs, etas }) {
  return etas
    .filter(({ at }) => at >= checkedMs / 4 && checkedMs - at > 2_000)
    .map(({ at, etaMs }) => (etaMs - (checkedMs - at)) / (checkedMs - at));
}

async function scenario(name, resumed) {
  const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate });
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-bench-eta-'));
  try {
    let token;
    const client = new CleaningClient(
      new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token }),
    );
    token = (await client.signup({ name: 'Bench', email: 'eta@example.com', password: 'bench password 123' })).token;
    const state = await openAccountState({ dataDir: join(dir, 'data'), account: 'eta' });
    const input = join(dir, 'list.csv');
    const lines = ['email,name'];
    for (let i = 0; i < addresses; i++) lines.push(`person${i}@example${i % 97}.com,Person ${i}`);
    writeFileSync(input, `${lines.join('\n')}\n`);
    const base = { dir, input, state, client, url: sandbox.url };
    if (resumed) await timedRun({ ...base, maxSpend: Math.round(addresses * 0.4) });
    const run = await timedRun({ ...base, earlierRun: resumed ? 'resume' : undefined });
    await state.close();
    if (process.env.BENCH_TRACE)
      for (const e of run.etas)
        console.log((e.at / 1000).toFixed(1), (e.etaMs / 1000).toFixed(1), ((run.checkedMs - e.at) / 1000).toFixed(1));
    const errors = errorsOf(run);
    const worst = errors.reduce((a, e) => (Math.abs(e) > Math.abs(a) ? e : a), 0);
    const first = run.etas[0];
    console.log(
      `${name.padEnd(8)} wall ${(run.ms / 1000).toFixed(1)} s, checking ${(run.checkedMs / 1000).toFixed(1)} s, first ETA ${first ? (first.etaMs / 1000).toFixed(1) : '-'} s ` +
        `at ${first ? (first.at / 1000).toFixed(1) : '-'} s; ${errors.length} ETAs after a quarter: ` +
        `worst ${(worst * 100).toFixed(0)}% (${Math.abs(worst) <= 0.2 ? 'ok' : 'OVER'} <= 20%), ` +
        `429s ${sandbox.stats().rateLimited}`,
    );
    return Math.abs(worst) <= 0.2;
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fresh = await scenario('fresh', false);
const resumed = await scenario('resumed', true);
process.exitCode = fresh && resumed ? 0 : 1;
