#!/usr/bin/env node
// The allowance a clean spends with the precheck and without it, with DNS and without, on a HubSpot-like export
// built here like issue 30's trial list: 2,500 rows, 2,412 unique addresses, of which 333 (13.8%) are at disposable
// domains, typos of big providers (gmial.com, hotmial.com, gmai.com) or reserved TLDs (.test, .invalid), which need
// no DNS, and 241 (10%) on domains that do not exist, which only DNS can tell; the rest on live domains. Against the
// sandbox over HTTP and DNS servers on 127.0.0.1 started here: one that answers, and one that denies every name, `com`
// included (a locked-down CI runner's resolver). Then a list of reserved TLDs only, against a resolver that never
// answers: nothing may be asked of it, so nothing is waited for. All runs in the same session.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, startDns } from './lib.mjs';

const { mulberry32 } = await import(join(root, 'dist', 'sandbox', 'faults.js'));
const { startSandbox } = await import(join(root, 'dist', 'sandbox', 'server.js'));

const COUNTS = { reserved: 41, typo: 118, disposable: 174, dead: 241, live: 1838 };
const DUPLICATE_ROWS = 88;
const DOMAINS = {
  reserved: ['site.test', 'mail.invalid'],
  typo: ['gmial.com', 'hotmial.com', 'gmai.com'],
  disposable: ['mailinator.com', 'guerrillamail.com', '10minutemail.com', 'yopmail.com'],
  live: ['gmail.com', 'yahoo.com', 'outlook.com', 'acme.example.com', 'globex.example.com', 'initech.example.com'],
};
const offlineDecidable = COUNTS.reserved + COUNTS.typo + COUNTS.disposable;
const unique = Object.values(COUNTS).reduce((a, b) => a + b, 0);

const rand = mulberry32(30);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const kinds = Object.entries(COUNTS).flatMap(([kind, n]) => Array.from({ length: n }, () => kind));
for (let i = kinds.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
}
const emails = kinds.map((kind, i) =>
  kind === 'dead' ? `contact${i}@gone-${i % 97}.example.net` : `contact${i}@${pick(DOMAINS[kind])}`,
);
// HubSpot's columns; a duplicate is the same contact again with its domain in capitals (one address, sent once).
const header =
  'Record ID,First Name,Last Name,Email Domain,Email,Phone Number,Company Name,Lifecycle Stage,Contact owner,Create Date';
const row = (id, email) =>
  `${id},First${id},Last${id},${email.split('@')[1]},${email},,"Company ${id % 50}, Inc.",Lead,Sales Team,2024-11-01 14:03`;
const rows = emails.map((email, i) => row(51000 + i, email));
for (let d = 0; d < DUPLICATE_ROWS; d++) {
  const email = emails[Math.floor(rand() * emails.length)];
  const [local, domain] = email.split('@');
  rows.push(row(60000 + d, `${local}@${domain.toUpperCase()}`));
}
const list = `${header}\n${rows.join('\n')}\n`;

// Live, disposable and mistyped domains take mail (typo squatters do); the dead ones do not exist.
const takingMail = new Set([...DOMAINS.live, ...DOMAINS.disposable, ...DOMAINS.typo]);
const dns = await startDns((name) => takingMail.has(name));
const denying = await startDns(() => false, { offline: 'deny' });
const silent = await startDns(() => false, { offline: 'silent' });

const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const sandbox = await startSandbox({ port: 0, plan: 'unlimited', rate: { requests: 1000, windowMs: 1000 } });
const baseEnv = {
  ...process.env,
  MAILCLEAN_CONFIG_DIR: join(home, 'config'),
  MAILCLEAN_DATA_DIR: join(home, 'data'),
  NO_COLOR: '1',
};
// Spawned, not run synchronously: the sandbox answers from this process's event loop.
const cli = (args, { input = '', dnsServer = dns.server } = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'mailclean.js'), ...args], {
      env: { ...baseEnv, MAILCLEAN_DNS_SERVERS: dnsServer },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr }));
    child.stdin.end(input);
  });
const asked = (server, filter = () => true) =>
  [...server.asked].filter(([q]) => filter(q)).reduce((a, [, n]) => a + n, 0);
const reservedQuestion = (q) => /\.(test|invalid|example|localhost)$/.test(q);

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
    { input: 'a long password' },
  );
  if (reg.status !== 0) throw new Error(reg.stderr);
  let n = 0;
  const spentBy = async (flags, dnsServer) => {
    // --restart and --max-age 0: the other runs' answers (this list's journal, the cache) must not answer this one.
    const file = join(home, `hubspot-${n++}.csv`);
    writeFileSync(file, list);
    const out = join(home, 'out.csv');
    const before = sandbox.stats().addressesCharged;
    const started = performance.now();
    const res = await cli(['clean', file, '-o', out, '--rate', '1000/1s', '--restart', '--max-age', '0', ...flags], {
      dnsServer,
    });
    const ms = performance.now() - started;
    if (res.status !== 0) throw new Error(res.stderr);
    if (process.env.BENCH_VERBOSE) console.error(res.stderr);
    const byPrecheck = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.endsWith(',precheck')).length;
    return { spent: sandbox.stats().addressesCharged - before, ms, byPrecheck, stderr: res.stderr };
  };
  const without = await spentBy(['--no-precheck'], dns.server);
  const withDns = await spentBy([], dns.server);
  const offline = await spentBy([], denying.server);

  // Reserved TLDs only, the resolver silent: a lookup would wait its timeouts; none may be made.
  const reservedFile = join(home, 'reserved.csv');
  writeFileSync(reservedFile, 'email\nann@site.test\nbob@host.invalid\ncy@www.example\n');
  const started = performance.now();
  const reserved = await cli(['clean', reservedFile, '-o', join(home, 'reserved.out.csv')], {
    dnsServer: silent.server,
  });
  const reservedMs = performance.now() - started;

  const line = (name, r) =>
    `${name.padEnd(30)} spent ${r.spent.toLocaleString('en-US').padStart(5)}  decided by the precheck ${String(r.byPrecheck).padStart(3)} rows  ${(r.ms / 1000).toFixed(2)} s`;
  console.log(
    `precheck on a HubSpot-like export: ${rows.length.toLocaleString('en-US')} rows, ${unique.toLocaleString('en-US')} unique (${COUNTS.reserved} reserved TLDs, ${COUNTS.typo} typos, ${COUNTS.disposable} disposable: ${offlineDecidable} need no DNS; ${COUNTS.dead} dead domains), node ${process.version}`,
  );
  console.log(line('--no-precheck', without));
  console.log(line('precheck, DNS answers', withDns));
  console.log(line('precheck, DNS denies all', offline));
  console.log(
    `reserved TLDs only, DNS silent: exit ${reserved.status}, ${(reservedMs / 1000).toFixed(2)} s, ${asked(silent)} DNS questions`,
  );
  const checks = [
    [without.spent === unique, `--no-precheck sends all ${unique}`],
    [withDns.spent === unique - offlineDecidable - COUNTS.dead, `with DNS, ${offlineDecidable + COUNTS.dead} not sent`],
    [offline.spent === unique - offlineDecidable, `without DNS, ${offlineDecidable} not sent`],
    [offline.stderr.match(/domain checks skipped/g)?.length === 1, 'without DNS, said once'],
    [asked(dns, reservedQuestion) + asked(denying, reservedQuestion) === 0, 'no reserved TLD looked up'],
    [reserved.status === 0 && asked(silent) === 0, 'a reserved-only list asks DNS nothing'],
  ];
  for (const [ok, what] of checks) console.log(`${ok ? 'ok' : 'MISMATCH'}: ${what}`);
  console.log(
    `allowance spent, precheck / none: with DNS ${(withDns.spent / without.spent).toFixed(3)}x (saved ${without.spent - withDns.spent}), without DNS ${(offline.spent / without.spent).toFixed(3)}x (saved ${without.spent - offline.spent}, ${((100 * (without.spent - offline.spent)) / unique).toFixed(1)}%)`,
  );
  process.exitCode = checks.every(([ok]) => ok) ? 0 : 1;
} finally {
  await sandbox.close();
  dns.close();
  denying.close();
  silent.close();
  rmSync(home, { recursive: true, force: true });
}
