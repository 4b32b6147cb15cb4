import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Rate } from '../config/rate.js';
import { ALLOWANCE_STATUSES, type AllowanceStatus } from './clean-answers.js';
import { DEFAULT_RATE } from './clean-limits.js';
import { emptyStats, type SandboxStats } from './clean-route.js';
import { PASSWORD_COST } from './crypto.js';
import { failureBody, interfaceOf, SHAPES, type Shape } from './envelopes.js';
import { HttpError } from './errors.js';
import { FaultInjector, type FaultOptions } from './faults.js';
import { isJson, refuseBrowsers, refuseOtherNames } from './guards.js';
import { createRouter } from './route-table.js';
import type { HandlerResult, ParsedRequest, Router, SandboxContext } from './router.js';
import { findByEmail, PLANS, type Plan } from './state.js';
import { Store } from './store.js';

export type { AllowanceStatus } from './clean-answers.js';
export type { SandboxStats } from './clean-route.js';
export type { Shape } from './envelopes.js';
export type { FaultOptions } from './faults.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  /** State lives in `join(dataDir, 'sandbox.json')`; without it, in memory only. */
  dataDir?: string;
  /** Secret for POST /api/oem/register; without it that route always answers 403. */
  internalToken?: string;
  /** Plan given to new accounts. */
  plan?: 'free' | 'pro' | 'unlimited';
  /** Clock in ms, so tests can move time: token expiry, the rate window, the allowance month. */
  now?: () => number;
  tokenTtlMs?: number;
  /** One line per request: method, path, status, duration. Never secrets or bodies. */
  log?: (line: string) => void;
  /** Rate limit of the clean route per cleaning user (sliding window); default 50 per 5 minutes. */
  rate?: Rate;
  /** Status of a refusal for the monthly clean allowance; default 403 (in both shapes). */
  allowanceStatus?: AllowanceStatus;
  /** Which reading of what the spec leaves open the answers follow; default `spec`. */
  shape?: Shape;
  /** Fault injection on the clean route; default none. */
  faults?: FaultOptions;
  /**
   * scrypt's N (a power of two) for the passwords of accounts registered from now on; default 2^14, OWASP's floor.
   * Tests lower it: hashing is most of what registering and signing in cost.
   */
  passwordCost?: number;
}

export interface SandboxHandle {
  /** `http://host:port`, no trailing slash: the base URL of both interfaces. */
  url: string;
  host: string;
  port: number;
  /** A snapshot of this handle's counters of the clean route (since start, in memory only). */
  stats(): SandboxStats;
  /** The cleaning account of `email` moves to `plan`, as the platform's billing would after an upgrade or downgrade. */
  setPlan(email: string, plan: Plan): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const plan = opts.plan ?? 'free';
  if (!PLANS.includes(plan)) throw new TypeError(`unknown plan ${JSON.stringify(plan)}`);
  const tokenTtlMs = opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS;
  if (!(tokenTtlMs > 0)) throw new TypeError('tokenTtlMs must be positive');
  const rate = checkRate(opts.rate ?? DEFAULT_RATE);
  const shape = opts.shape ?? 'spec';
  if (!SHAPES.includes(shape)) throw new TypeError(`unknown shape ${JSON.stringify(shape)}`);
  const allowanceStatus = opts.allowanceStatus ?? 403;
  if (!ALLOWANCE_STATUSES.includes(allowanceStatus)) {
    throw new TypeError(`allowanceStatus must be one of ${ALLOWANCE_STATUSES.join(', ')}`);
  }
  const faults = new FaultInjector(opts.faults ?? {});
  const passwordCost = opts.passwordCost ?? PASSWORD_COST;
  if (!(passwordCost > 1 && Number.isInteger(Math.log2(passwordCost))))
    throw new TypeError('passwordCost must be a power of two above 1');
  const stats = emptyStats();

  const ctx: SandboxContext = {
    store: await Store.open(opts.dataDir),
    now: opts.now ?? Date.now,
    tokenTtlMs,
    // An empty secret would let an empty body field pass, so it counts as no secret.
    internalToken: opts.internalToken === '' ? undefined : opts.internalToken,
    plan,
    shape,
    passwordCost,
  };
  const router = createRouter({ rate, allowanceStatus, faults, stats });
  const log = opts.log;

  const host = opts.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    // serve() answers every failure itself; this only catches a throwing `log`, which must not crash the host.
    serve(req, res, router, ctx, log, host).catch(() => undefined);
  });
  await listen(server, opts.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    stats: () => structuredClone(stats),
    setPlan: async (email, next) => {
      if (!PLANS.includes(next)) throw new TypeError(`unknown plan ${JSON.stringify(next)}`);
      await ctx.store.refresh();
      await ctx.store.mutate((draft) => {
        const user = findByEmail(draft.cleanUsers, email);
        if (!user) throw new TypeError(`no cleaning account for ${email}`);
        user.plan = next;
        user.updatedAt = ctx.now();
      });
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Idle keep-alive sockets would otherwise hold the process open for seconds.
      server.closeAllConnections();
      await closed;
      await ctx.store.flush();
    },
  };
}

function checkRate(rate: Rate): Rate {
  if (!(Number.isSafeInteger(rate.requests) && rate.requests > 0))
    throw new TypeError('rate.requests must be a positive integer');
  if (!(Number.isFinite(rate.windowMs) && rate.windowMs > 0))
    throw new TypeError('rate.windowMs must be a positive number');
  return { requests: rate.requests, windowMs: rate.windowMs };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A wildcard bind is reached through loopback by the clients on this machine. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  router: Router,
  ctx: SandboxContext,
  log: ((line: string) => void) | undefined,
  boundHost: string,
): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const { path, query } = splitUrl(req.url ?? '/');
  let result: HandlerResult;
  try {
    refuseOtherNames(req, boundHost);
    result = await dispatch(req, method, path, query, router, ctx);
  } catch (err) {
    result = failure(ctx.shape, path, err);
  }
  await send(req, res, result);
  const outcome =
    result.transport === 'reset' ? 'reset' : `${result.status}${result.transport === 'truncate' ? ' truncated' : ''}`;
  log?.(`${method} ${path} ${outcome} ${Math.round(performance.now() - started)}ms`);
}

async function dispatch(
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  router: Router,
  ctx: SandboxContext,
): Promise<HandlerResult> {
  const match = router.match(method, path);
  if (match.kind === 'not-found') throw new HttpError(404, `No route for ${method} ${path}.`);
  if (match.kind === 'method-not-allowed') {
    const allow = match.allow.join(', ');
    throw new HttpError(405, `Method ${method} is not allowed here; use ${allow}.`, undefined, { allow });
  }
  refuseBrowsers(req);
  const raw = await readBody(req);
  if (raw.length > 0 && !isJson(req.headers['content-type'])) {
    throw new HttpError(415, 'The request body must be JSON, sent as Content-Type: application/json.');
  }
  const body = parseBody(raw);
  await ctx.store.refresh();
  const parsed: ParsedRequest = { method, path, query, headers: req.headers, params: match.params, body };
  return match.handler(parsed, ctx);
}

function splitUrl(raw: string): { path: string; query: URLSearchParams } {
  const q = raw.indexOf('?');
  const pathname = q < 0 ? raw : raw.slice(0, q);
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname || '/';
  return { path, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

function tooLarge(): HttpError {
  // The rest of the body is never read, so the connection cannot carry another request.
  return new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, undefined, {
    connection: 'close',
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function parseBody(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function failure(shape: Shape, path: string, err: unknown): HandlerResult {
  const iface = interfaceOf(path);
  if (err instanceof HttpError) {
    return { status: err.status, body: failureBody(shape, iface, err), headers: err.headers };
  }
  // Internal details stay out of the response; the status alone tells the client to retry or report.
  return { status: 500, body: failureBody(shape, iface, new HttpError(500, 'Internal server error.')) };
}

function sleep(ms: number): Promise<void> {
  // Unref'd: a delayed answer must not keep a closed sandbox's process alive.
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function send(req: IncomingMessage, res: ServerResponse, result: HandlerResult): Promise<void> {
  if (result.delayMs !== undefined && result.delayMs > 0) await sleep(result.delayMs);
  if (res.headersSent || res.destroyed) return;
  if (result.transport === 'reset') {
    // RST rather than FIN, so the client sees ECONNRESET as from a crashed peer or a middlebox.
    req.socket.resetAndDestroy();
    return;
  }
  const payload = Buffer.from(result.raw ? result.raw.text : JSON.stringify(result.body), 'utf8');
  res.writeHead(result.status, {
    'content-type': result.raw ? result.raw.contentType : 'application/json; charset=utf-8',
    'content-length': payload.length,
    'cache-control': 'no-store',
    ...result.headers,
  });
  if (result.transport === 'truncate') {
    // The headers promise the whole body; half of it arrives, then the connection is gone.
    await new Promise<void>((resolve) => {
      res.once('close', resolve); // the client may have gone first, and then the write never completes
      res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => {
        res.destroy();
        resolve();
      });
    });
    return;
  }
  res.end(payload);
}
