import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { formatRate, parseRate } from '../config/rate.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import { selectFields } from '../io/json.js';
import type { AllowanceStatus, FaultOptions } from '../sandbox/server.js';
import { readInternalToken } from './common/inputs.js';
import type { SandboxFlags } from './flags/sandbox.js';

/** `mailclean sandbox` as typed options: the server's settings, and how to report where it listens. */
type SandboxCommandOptions = Awaited<ReturnType<typeof sandboxOptions>>;

export async function sandboxOptions(opts: SandboxFlags, f: Factory) {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: "${opts.port}" is not a port number`);
  if (opts.memory && opts.data !== undefined) throw new UsageError('--data and --memory cannot be used together');
  const rates = {
    faults: parseProbability(opts.faultRate, '--fault-rate'),
    rejects: parseProbability(opts.rejectRate, '--reject-rate'),
    drops: parseProbability(opts.dropRate, '--drop-rate'),
  };
  if (rates.faults + rates.rejects + rates.drops > 1 + 1e-9)
    throw new UsageError('--fault-rate, --reject-rate and --drop-rate add up to more than 1');
  const { token: internalToken } = await readInternalToken(f, opts.internalTokenFile);
  const faults: FaultOptions = {
    serverErrorRate: rates.faults / 3,
    resetRate: rates.faults / 3,
    truncateRate: rates.faults / 3,
    rejectRate: rates.rejects / 2,
    rejectUnnamedRate: rates.rejects / 2,
    dropRate: rates.drops,
    latencyMs: opts.latency === undefined ? undefined : parseLatency(opts.latency),
    seed: opts.seed === undefined ? randomInt(0x1_0000_0000) : parseSeed(opts.seed),
  };
  const server = {
    host: opts.host,
    port,
    dataDir: opts.memory ? undefined : (opts.data ?? join(f.dataDir, 'sandbox')),
    internalToken,
    plan: opts.plan,
    rate: parseRate(opts.rate, '--rate'),
    allowanceStatus: parseAllowanceStatus(opts.allowanceStatus),
    shape: opts.shape,
    faults,
  };
  // A field that is not one of these is refused before the server listens, not after.
  selectFields({}, opts.json, SANDBOX_FIELDS);
  return { server, rates, json: opts.json };
}

const SANDBOX_FIELDS = ['apiUrl', 'cleanUrl', 'dataDir'];

/** Serves until the first Ctrl-C or SIGTERM, then saves its state. */
export async function serveSandbox(o: SandboxCommandOptions, f: Factory): Promise<number> {
  const { startSandbox } = await import('../sandbox/server.js');
  const { server } = o;
  let handle: Awaited<ReturnType<typeof startSandbox>>;
  try {
    handle = await startSandbox({ ...server, log: f.io.debugEnabled ? (line) => f.io.debug(line) : undefined });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${server.port} is already in use`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`--host: cannot bind ${server.host}`);
    throw error;
  }
  if (o.json !== undefined)
    f.io.json({ apiUrl: handle.url, cleanUrl: handle.url, dataDir: server.dataDir ?? null }, o.json, SANDBOX_FIELDS);
  else f.io.out(`api-url    ${handle.url}\nclean-url  ${handle.url}\n`);
  if (!isLoopback(server.host)) {
    f.io.warn(
      `the sandbox listens on ${server.host}, not only on this machine: anyone who can reach it can use its accounts and tokens (--host 127.0.0.1 keeps it local)`,
    );
  }
  f.io.note(`Sandbox running (${server.dataDir ? `state in ${server.dataDir}` : 'state in memory'}). Ctrl-C to stop.`);
  f.io.note(`Use it with: export MAILCLEAN_API_URL=${handle.url} MAILCLEAN_CLEAN_URL=${handle.url}`);
  if (server.shape !== 'spec') f.io.note(`Answer shape: ${String(server.shape)}.`);
  f.io.note(describeCleanRoute(o));
  const stop = f.io.signals.stop;
  if (!stop.aborted) await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
  await handle.close();
  f.io.note('Sandbox stopped.');
  // Stopping is what a signal asks of it, but scripts still learn which one ended it, as elsewhere.
  return f.io.signals.exitCode;
}

function describeCleanRoute({ server, rates }: SandboxCommandOptions): string {
  const { latencyMs: latency, seed } = server.faults;
  const parts = [`rate ${formatRate(server.rate)} per user`, `allowance refusals ${server.allowanceStatus}`];
  for (const [name, p] of Object.entries(rates)) if (p > 0) parts.push(`${name} ${p}`);
  if (latency !== undefined) parts.push(`latency ${typeof latency === 'number' ? latency : latency.join('-')}ms`);
  const drawn = Object.values(rates).some((p) => p > 0) || (latency !== undefined && typeof latency !== 'number');
  if (drawn) parts.push(`seed ${seed}`);
  return `Clean route: ${parts.join(', ')}.`;
}

function parseAllowanceStatus(text: string): AllowanceStatus {
  const t = text.trim();
  if (t === '402' || t === '403' || t === '429') return Number(t) as 402 | 403 | 429;
  throw new UsageError(`--allowance-status: "${text}" is not one of 402, 403, 429`);
}

const DECIMAL = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*$/;

function parseProbability(text: string, flag: string): number {
  const p = DECIMAL.test(text) ? Number(text) : NaN;
  if (!(p >= 0 && p <= 1))
    throw new UsageError(`${flag}: "${text}" is not a probability`, 'give a number from 0 to 1, e.g. 0.05');
  return p;
}

function parseLatency(text: string): number | [number, number] {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  const min = match ? Number(match[1]) : NaN;
  const max = match?.[2] !== undefined ? Number(match[2]) : min;
  if (!match || !(max >= min)) {
    throw new UsageError(
      `--latency: "${text}" is not a delay`,
      'give milliseconds, e.g. 200, or a range MIN-MAX, e.g. 50-300',
    );
  }
  return min === max ? min : [min, max];
}

function parseSeed(text: string): number {
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : NaN;
  if (!(Number.isSafeInteger(n) && n < 0x1_0000_0000))
    throw new UsageError(`--seed: "${text}" is not a seed`, 'give a whole number from 0 to 4294967295');
  return n;
}

function isLoopback(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
