#!/usr/bin/env node
// `clean --local` on 1,000,000 rows over 10,000 distinct domains, against a DNS server on 127.0.0.1 started here,
// as a rows/s ratio to `clean --dry-run` on the same file in the same run; and DNS queries against distinct domains.
import dgram from 'node:dgram';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import { mb, measure, root } from './lib.mjs';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const domains = Number(process.env.BENCH_DOMAINS ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

// Every bench domain has an MX; `com` exists (the engine asks before it believes "no such domain").
const questions = { mx: 0, other: 0, names: new Set() };
const socket = dgram.createSocket('udp4');
socket.on('message', (msg, rinfo) => {
  const query = dnsPacket.decode(msg);
  const q = query.questions[0];
  const name = q.name.toLowerCase();
  if (q.type === 'MX') questions.mx++;
  else questions.other++;
  questions.names.add(name);
  const answers = q.type === 'MX' && name.endsWith('.bench') ? [{ type: 'MX', name: q.name, ttl: 60, data: { preference: 10, exchange: `mx.${name}` } }] : [];
  if (q.type === 'NS' && name === 'com') answers.push({ type: 'NS', name: 'com', ttl: 60, data: 'ns.com' });
  socket.send(dnsPacket.encode({ id: query.id, type: 'response', flags: dnsPacket.RECURSION_AVAILABLE, questions: [q], answers }), rinfo.port, rinfo.address);
});
await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
const server = `127.0.0.1:${socket.address().port}`;

const work = join(root, 'bench', 'tmp');
mkdirSync(work, { recursive: true });
const file = join(work, `local-${rows}-${domains}.csv`);
if (!existsSync(file)) {
  const out = createWriteStream(file);
  out.write('email,first_name,city\n');
  for (let i = 0; i < rows; i++) {
    if (!out.write(`person${i}@d${i % domains}.bench,Person ${i},City ${i % 500}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const home = mkdtempSync(join(tmpdir(), 'mailclean-bench-'));
const env = { MAILCLEAN_CONFIG_DIR: join(home, 'config'), MAILCLEAN_DATA_DIR: join(home, 'data') };
const bin = join(root, 'bin', 'mailclean.js');
const dry = [];
const local = [];
const queriesPerRun = [];
try {
  for (let i = 0; i < rounds; i++) {
    const d = await measure([bin, 'clean', file, '--dry-run', '--json'], { env });
    if (d.code !== 0) throw new Error(d.stderr);
    dry.push(d);
    const before = questions.mx + questions.other;
    questions.names = new Set();
    const l = await measure([bin, 'clean', file, '--local', '--dns-server', server, '-o', join(home, 'out.csv')], { env });
    if (l.code !== 0) throw new Error(l.stderr);
    local.push(l);
    queriesPerRun.push({ queries: questions.mx + questions.other - before, benchDomains: [...questions.names].filter((n) => n.endsWith('.bench')).length });
  }
} finally {
  socket.close();
  rmSync(home, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = median(local.map((r, i) => dry[i].ms / r.ms));
const rate = (ms) => Math.round(rows / (ms / 1000)).toLocaleString('en-US');
const q = queriesPerRun[0];
console.log(`clean --local on ${rows.toLocaleString('en-US')} rows, ${domains.toLocaleString('en-US')} distinct domains, ${rounds} alternating rounds, node ${process.version}`);
console.log(`clean --dry-run  ${rate(median(dry.map((r) => r.ms)))} rows/s  peak ${mb(Math.max(...dry.map((r) => r.rss)))}`);
console.log(`clean --local    ${rate(median(local.map((r) => r.ms)))} rows/s  peak ${mb(Math.max(...local.map((r) => r.rss)))}`);
console.log(`rows/s ratio, --local / --dry-run (median of rounds): ${ratio.toFixed(2)}x`);
// The engine asks about `com` only when it has a negative answer to confirm; here every domain has an MX.
const ok = q.benchDomains === domains && (q.queries === domains || q.queries === domains + 1);
console.log(`DNS queries per run: ${q.queries} for ${q.benchDomains} distinct domains ${ok ? 'ok (one per domain)' : 'MISMATCH'}`);
console.log('(--local also writes the output file; --dry-run stops after reading)');
process.exitCode = ok ? 0 : 1;
