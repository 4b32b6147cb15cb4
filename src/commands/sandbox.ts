import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { formatRate, parseRate, type Rate } from '../config/rate.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import type { AllowanceStatus, FaultOptions, SandboxOptions } from '../sandbox/server.js';
import { jsonOption, readSecretFile } from './common/inputs.js';
import type { Runner } from './index.js';

/** The sandbox's flags, declared once: their types are read from here. */
function declareFlags(cmd: Command) {
  return faultFlags(serverFlags(cmd)).addOption(jsonOption()).addHelpText('after', SANDBOX_HELP);
}

/** Where it listens and keeps its state, and the service's limits and answer shape. */
function serverFlags(cmd: Command) {
  return cmd
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--data <dir>', 'keep state in this directory (default: <data dir>/sandbox)')
    .option('--memory', 'keep state in memory only')
    .addOption(
      new Option('--plan <plan>', 'plan given to new cleaning accounts')
        .choices(['free', 'pro', 'unlimited'] as const)
        .default('free'),
    )
    .option(
      '--internal-token-file <file>',
      'file holding the internal token for /api/oem/register (else MAILCLEAN_INTERNAL_TOKEN)',
    )
    .option(
      '--rate <N/WINDOW>',
      'requests per cleaning user on the clean route, sliding window (e.g. 5/2s, 100/1h)',
      '50/5m',
    )
    .option('--allowance-status <code>', 'status of a refusal for the monthly clean allowance: 402, 403 or 429', '403')
    .addOption(
      new Option('--shape <shape>', 'how answers read where the spec is silent (see below)')
        .choices(['spec', 'alt'] as const)
        .default('spec'),
    );
}

/** Faults and delays on the clean route, for rehearsing a flaky service. */
function faultFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O>) {
  return cmd
    .option(
      '--fault-rate <p>',
      'probability (0 to 1) of a fault per clean request, split evenly across 5xx, reset and truncated body',
      '0',
    )
    .option(
      '--reject-rate <p>',
      'probability of a 422 per valid clean request, half naming one of its addresses, half none',
      '0',
    )
    .option('--drop-rate <p>', 'probability that a clean answer leaves out the record of one address', '0')
    .option('--latency <ms|min-max>', 'delay every clean answer by MS, or a random MIN-MAX ms')
    .option('--seed <n>', 'seed of the fault and latency generator, to replay a run (default: random, printed)');
}

const SANDBOX_HELP = `
Serves both interfaces on one origin and prints their base URLs. Stop it with Ctrl-C.

The clean route keeps the service's limits: --rate per cleaning user (default 50/5m; a 429 with
Retry-After and RateLimit-* headers beyond it) and a monthly allowance per plan (free 50, pro
10000 addresses, unlimited none; refused whole with --allowance-status). Rate arrivals and usage
persist in the data directory, so runs sharing it share the limits.

--shape alt answers as a second, independent reading of what the spec leaves open:
  - platform failures: {version, status:false, statusCode, details: <HTTP reason>, statusMessage: <the
    message, "The given data was invalid." on 422>, response: {errors} on 422, else null}; no top-level
    message or errors
  - cleaning failures: {status:false, statusCode, message, result: {errors} on 422, else null}
  - a missing, bad or expired token on a protected route: a bare {"message":"Unauthenticated."}
  - POST /api/login and /api/register: the token in response.access_token (token_type Bearer)
  - POST /api/v1/auth/signin and signup: the token in result.accessToken (user in result.user)
  - GET /api/me?current_buuid= with a brand the user does not own: 403 "This action is unauthorized."
  - POST /api/me: empty strings count as missing (422)
  - monthly allowance refusal: 403 (unless --allowance-status), message "You have exceeded your monthly
    email cleaning limit on the free plan: 50 per month, 20 left." (no renewal date)

Fault injection, for rehearsing a flaky service, applies to the clean route only: --fault-rate P
gives each admitted request a P/3 chance each of a 500/502/503, a connection reset, and a body cut
in half; --reject-rate P a P/2 chance each of a 422 naming one of its addresses ("email.3") and of a
422 naming none (nothing charged); --drop-rate P a P chance that a 200 leaves out the record of one
address (all charged). The rates add up to at most 1. --latency delays the answers. The same --seed
replays the same faults.

Examples:
  mailclean sandbox --port 8080 --memory &
  mailclean --api-url http://127.0.0.1:8080 --clean-url http://127.0.0.1:8080 register
  mailclean sandbox --rate 5/10s --fault-rate 0.1 --latency 50-300 --seed 42 --allowance-status 429
  mailclean sandbox --reject-rate 0.05 --drop-rate 0.05 --seed 7`;

type SandboxFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => serveSandbox(await sandboxOptions(opts, f), f)));
}

/** `mailclean sandbox` as typed options: the server's settings, and how to report where it listens. */
export interface SandboxCommandOptions {
  server: Omit<SandboxOptions, 'log'> & {
    host: string;
    port: number;
    rate: Rate;
    allowanceStatus: AllowanceStatus;
    faults: FaultOptions;
  };
  /** Fault rates as given, for the line that describes the clean route. */
  rates: { faults: number; rejects: number; drops: number };
  json?: JsonFlag;
}

export async function sandboxOptions(opts: SandboxFlags, f: Factory): Promise<SandboxCommandOptions> {
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
  const internalToken =
    opts.internalTokenFile !== undefined
      ? await readSecretFile('--internal-token-file', opts.internalTokenFile)
      : f.io.env.MAILCLEAN_INTERNAL_TOKEN;
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
  return { server, rates, json: opts.json };
}

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
    f.io.json({ apiUrl: handle.url, cleanUrl: handle.url, dataDir: server.dataDir ?? null }, o.json, [
      'apiUrl',
      'cleanUrl',
      'dataDir',
    ]);
  else f.io.out(`api-url    ${handle.url}\nclean-url  ${handle.url}\n`);
  if (!isLoopback(server.host)) {
    f.io.warn(
      `the sandbox listens on ${server.host}, not only on this machine: anyone who can reach it can use its accounts and tokens (--host 127.0.0.1 keeps it local)`,
    );
  }
  f.io.note(`Sandbox running (${server.dataDir ? `state in ${server.dataDir}` : 'state in memory'}). Ctrl-C to stop.`);
  f.io.note(`Use it with: export MAILCLEAN_API_URL=${handle.url} MAILCLEAN_CLEAN_URL=${handle.url}`);
  if (server.shape !== 'spec') f.io.note(`Answer shape: ${String(server.shape)}.`);
  f.io.note(
    describeCleanRoute(server.rate, server.allowanceStatus, o.rates, server.faults.latencyMs, server.faults.seed!),
  );
  const stop = f.io.signals.stop;
  if (!stop.aborted) await new Promise((resolve) => stop.addEventListener('abort', resolve, { once: true }));
  await handle.close();
  f.io.note('Sandbox stopped.');
  // Stopping is what a signal asks of it, but scripts still learn which one ended it (130, 143), as elsewhere.
  return f.io.signals.exitCode;
}

function describeCleanRoute(
  rate: Rate,
  allowanceStatus: number,
  rates: { faults: number; rejects: number; drops: number },
  latency: number | [number, number] | undefined,
  seed: number,
): string {
  const parts = [`rate ${formatRate(rate)} per user`, `allowance refusals ${allowanceStatus}`];
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

/** Addresses only this machine can reach. */
function isLoopback(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
