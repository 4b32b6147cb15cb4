// Shared by the benchmarks: run a node command, timing it and reading its peak RSS; a DNS server on loopback.
import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';

export const root = fileURLToPath(new URL('..', import.meta.url));
const rssHook = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));

/**
 * Runs `node args` with the RSS hook; resolves with wall ms, CPU ms, peak RSS bytes, exit code, stderr and, with
 * `stdout: 'pipe'`, stdout.
 */
export function measure(args, { env = {}, stdout = 'ignore', input } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', rssHook, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', stdout, 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin.end(input);
    let stderr = '';
    let stdoutText = '';
    let rssLine = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout?.on('data', (d) => (stdoutText += d));
    child.stdio[3].on('data', (d) => (rssLine += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const rss = Number(/maxrss=(\d+)/.exec(rssLine)?.[1] ?? NaN);
      const cpuMs = Number(/cpu_us=(\d+)/.exec(rssLine)?.[1] ?? NaN) / 1000;
      resolve({ ms, cpuMs, rss, code, stderr, stdout: stdoutText });
    });
  });
}

/** Registers a cleaning account with `bin` in the home `env` names (its URLs included); throws when it fails. */
export async function registerCleaning(bin, env, email = `bench${Date.now()}@example.com`) {
  const args = [bin, 'register', '--service', 'clean', '--name', 'Bench', '--email', email, '--password-stdin'];
  const reg = await measure(args, { env, input: 'bench password 123' });
  if (reg.code !== 0) throw new Error(`register failed: ${reg.stderr}`);
}

/**
 * Runs `python3 args` (a script printing maxrss=N and cpu_us=N on stderr); resolves with wall ms, CPU ms, peak RSS
 * bytes and exit code.
 */
export function measurePython(args) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('python3', args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuMs = Number(/cpu_us=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1000;
      resolve({ ms, cpuMs, rss: Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? NaN), code, stderr });
    });
  });
}

export const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/**
 * The path of a generated export of `rows` rows in bench/tmp (made by gen-csv.mjs on first use, then reused);
 * with `domains`, its addresses spread over that many `.bench` domains. Exits the benchmark if it cannot be made.
 */
export function generatedList(rows, { name = `list-${rows}.csv`, domains } = {}) {
  const work = join(root, 'bench', 'tmp');
  mkdirSync(work, { recursive: true });
  const file = join(work, name);
  if (!existsSync(file)) {
    const args = [join(root, 'bench', 'gen-csv.mjs'), String(rows), file, ...(domains ? ['1', String(domains)] : [])];
    if (spawnSync(process.execPath, args, { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  return file;
}

/**
 * A DNS server on 127.0.0.1 for a benchmark's domains, so that nothing is asked beyond loopback: the names
 * `takesMail(name)` accepts get an MX, `com` an NS (the engine asks it first, to see whether DNS answers at all),
 * and every other name does not exist. `asked` counts the questions by "TYPE name". `offline: 'deny'` answers
 * NXDOMAIN to everything, `com` too (a sandboxed CI runner's resolver), `offline: 'silent'` never answers. With
 * `delayMs` (a function of nothing), each answer waits that long; `silent(name)`: that name is never answered;
 * `refuse(name)`: REFUSED, at once (a rate-limiting resolver).
 */
export async function startDns(takesMail, { offline, delayMs, silent, refuse } = {}) {
  const asked = new Map();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const query = dnsPacket.decode(msg);
    const q = query.questions[0];
    const name = q.name.toLowerCase();
    asked.set(`${q.type} ${name}`, (asked.get(`${q.type} ${name}`) ?? 0) + 1);
    if (offline === 'silent' || silent?.(name)) return;
    // An answer still waiting when the server closes is dropped.
    const reply = (packet) => {
      try {
        socket.send(packet, rinfo.port, rinfo.address);
      } catch {}
    };
    const send = (packet) => (delayMs ? setTimeout(reply, delayMs(), packet) : reply(packet));
    if (offline === 'deny' || refuse?.(name)) {
      const flags = dnsPacket.RECURSION_AVAILABLE | (offline === 'deny' ? 3 : 5);
      (offline === 'deny' ? send : reply)(dnsPacket.encode({ id: query.id, type: 'response', flags, questions: [q] }));
      return;
    }
    const mail = takesMail(name);
    const answers =
      q.type === 'MX' && mail
        ? [{ type: 'MX', name: q.name, ttl: 60, data: { preference: 10, exchange: `mx.${name}` } }]
        : [];
    if (q.type === 'NS' && name === 'com') answers.push({ type: 'NS', name: 'com', ttl: 60, data: 'ns.com' });
    const flags = dnsPacket.RECURSION_AVAILABLE | (mail || name === 'com' ? 0 : 3);
    send(dnsPacket.encode({ id: query.id, type: 'response', flags, questions: [q], answers }));
  });
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, asked, close: () => socket.close() };
}

/**
 * Fills the verdict cache of the account (`cleanUrl`, `token`) in `dataDir` with every unique address of `file`,
 * valid, stored in batches of 50 as a service run would, then made-up addresses up to `total` answers. Returns the
 * list's unique count and the cache's stats.
 */
export async function fillCache(file, { dataDir, cleanUrl, token, spoolDir, total = 0 }) {
  const dist = (path) => join(root, 'dist', path);
  const [{ openInput }, { scanInput }, { accountKey }, { accountFiles }, { SqliteVerdictCache }] = await Promise.all([
    import(dist('clean/scan/input/index.js')),
    import(dist('clean/scan/scan.js')),
    import(dist('clean/state/account-key.js')),
    import(dist('clean/state/disk/paths.js')),
    import(dist('clean/state/disk/sqlite-verdict-cache.js')),
  ]);
  const layout = await openInput({ path: file, stdin: process.stdin, spoolDir });
  const scan = await scanInput(layout, { spoolDir });
  const cache = new SqliteVerdictCache(accountFiles(dataDir, accountKey(cleanUrl, undefined, token)).cache);
  const at = new Date().toISOString();
  const batch = [];
  const put = async (key) => {
    batch.push({ key, status: 'valid', valid: true, disposable: false, validDomain: true, reason: '', checkedAt: at });
    if (batch.length === 50) await cache.store(batch.splice(0));
  };
  for (const key of scan.unique) await put(key);
  const unique = scan.unique.size;
  for (let i = unique; i < total; i++) await put(`filler${i}@example.net`);
  if (batch.length > 0) await cache.store(batch);
  const stats = await cache.stats();
  await cache.close();
  scan.release();
  await layout.cleanup();
  return { unique, stats };
}
