#!/usr/bin/env node
// The allowance a clean spends with the precheck and without it, on a generated list of 2,000 unique addresses
// (10% on domains that do not exist, 3% disposable, 2% mistyped providers, the rest on live domains), against the
// sandbox over HTTP and a DNS server on 127.0.0.1 started here. Both runs in the same session; the figure is the
// ratio of addresses paid for (target: only what the precheck cannot decide is sent).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startDns } from './lib.mjs';

const { mulberry32 } = await import(join(root, 'dist', 'sandbox', 'faults.js'));

const unique = Number(process.env.BENCH_UNIQUE ?? 2000);
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));

const rand = mulberry32(7);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const live = ['gmail.com', 'yahoo.com', 'outlook.com', 'acme.example.com', 'globex.example.com', 'initech.example.com'];
const disposable = ['mailinator.com', 'guerrillamail.com', '10minutemail.com'];
const typos = ['gmial.com', 'yaho.com', 'hotmial.com', 'outlok.com'];
const kinds = { live: 0, dead: 0, disposable: 0, typo: 0 };
const lines = ['email,first_name'];
for (let i = 0; i < unique; i++) {
  const r = rand();
  const [kind, domain] =
    r < 0.1
      ? ['dead', `gone-${i % 97}.example.net`]
      : r < 0.13
        ? ['disposable', pick(disposable)]
        : r < 0.15
          ? ['typo', pick(typos)]
          : ['live', pick(live)];
  kinds[kind]++;
  lines.push(`person${i}@${domain},Person ${i}`);
}

// Live, disposable and mistyped domains take mail (typo squatters do); the dead ones do not exist.
const takingMail = new Set([...live, ...disposable, ...typos]);
const dnsServer = await startDns((name) => takingMail.has(name));
const dns = dnsServer.server;

const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 1000, windowMs: 1000 } });
const env = {
  ...process.env,
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
  MAILCLEAN_DNS_SERVERS: dns,
  NO_COLOR: '1',
};
// Spawned, not run synchronously: the sandbox answers from this process's event loop.
const cli = (args, input = '') =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'mailclean.js'), ...args], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
    child.stdin.end(input);
  });
try {
  const reg = await cli(
    [
      '--api-url',
      sandbox.url,
      '--clean-url',
      sandbox.url,
      'register',
      '--service',
      'clean',
      '--name',
      'Bench',
      '--email',
      'bench@example.com',
      '--password-stdin',
    ],
    'a long password',
  );
  if (reg.status !== 0) throw new Error(reg.stderr);
  const spentBy = async (flags) => {
    const file = join(home, `list${flags.join('')}.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const before = sandbox.stats().addressesCharged;
    const started = performance.now();
    // --restart: the other run's answers (this list's journal, the cache) must not answer this one.
    const res = await cli(['clean', file, '-o', join(home, 'out.csv'), '--rate', '1000/1s', '--restart', ...flags]);
    if (res.status !== 0) throw new Error(res.stderr);
    if (process.env.BENCH_VERBOSE) console.error(res.stderr);
    return { spent: sandbox.stats().addressesCharged - before, ms: performance.now() - started };
  };
  const without = await spentBy(['--no-precheck']);
  const withPrecheck = await spentBy([]);
  const decidable = kinds.dead + kinds.disposable + kinds.typo;
  console.log(
    `precheck on ${unique.toLocaleString('en-US')} unique addresses (${kinds.dead} dead domains, ${kinds.disposable} disposable, ${kinds.typo} typos), node ${process.version}`,
  );
  console.log(`--no-precheck  spent ${without.spent.toLocaleString('en-US')}  ${(without.ms / 1000).toFixed(2)} s`);
  console.log(
    `precheck       spent ${withPrecheck.spent.toLocaleString('en-US')}  ${(withPrecheck.ms / 1000).toFixed(2)} s`,
  );
  const ok = withPrecheck.spent === unique - decidable;
  console.log(
    `allowance spent, precheck / none: ${(withPrecheck.spent / without.spent).toFixed(3)}x (saved ${without.spent - withPrecheck.spent}); ${ok ? 'ok' : 'MISMATCH'}: sent exactly the ${unique - decidable} the precheck cannot decide`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await sandbox.close();
  dnsServer.close();
  rmSync(home, { recursive: true, force: true });
}
