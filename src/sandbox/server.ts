import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRate, DEFAULT_RATE, parseRate, type Rate } from '../config/rate.js';
import { ALLOWANCE_STATUSES, type AllowanceStatus } from './clean-answers.js';
import { cleanRoute, emptyStats, type SandboxStats } from './clean-route.js';
import { cleaningAuthRoutes } from './cleaning-accounts.js';
import { PASSWORD_COST } from './crypto.js';
import { SHAPES, type Shape } from './envelopes.js';
import { FaultInjector, type FaultOptions } from './faults.js';
import { platformRoutes } from './platform-routes.js';
import { routeTable, type SandboxContext } from './router.js';
import { serve } from './serve.js';
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
  plan?: Plan;
  /** So tests can move time: token expiry, the rate window, the allowance month. */
  now?: () => number;
  tokenTtlMs?: number;
  log?: (line: string) => void;
  /** Rate limit of the clean route per cleaning user (sliding window); default the spec's. */
  rate?: Rate;
  /** Status of a refusal for the monthly allowance; default 403. */
  allowanceStatus?: AllowanceStatus;
  /** Which reading of what the spec leaves open the answers follow; default `spec`. */
  shape?: Shape;
  faults?: FaultOptions;
  /** scrypt's N for passwords stored from now on; default OWASP's floor. Tests lower it: hashing is slow. */
  passwordCost?: number;
}

export interface SandboxHandle {
  /** `http://host:port`, no trailing slash: the base URL of both interfaces. */
  url: string;
  host: string;
  port: number;
  stats(): SandboxStats;
  /** The cleaning account of `email` moves to `plan`, as billing would after an upgrade or downgrade. */
  setPlan(email: string, plan: Plan): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<SandboxHandle> {
  const rate = checkRate(opts.rate ?? parseRate(DEFAULT_RATE, 'rate'), 'rate');
  const allowanceStatus = oneOf('allowanceStatus', opts.allowanceStatus ?? 403, ALLOWANCE_STATUSES);
  const faults = new FaultInjector(opts.faults ?? {});
  const stats = emptyStats();
  const ctx = await contextOf(opts);
  const routes = routeTable([
    ...platformRoutes,
    ...cleaningAuthRoutes,
    cleanRoute({ rate, allowanceStatus, faults, stats }),
  ]);
  const host = opts.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    // serve() answers every failure itself; this only catches a throwing `log`, which must not crash the host.
    serve(req, res, { routes, ctx, log: opts.log, boundHost: host }).catch(() => undefined);
  });
  // once() rejects on an 'error' (the port taken) before 'listening'.
  await once(server.listen(opts.port ?? 0, host), 'listening');
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    stats: () => structuredClone(stats),
    setPlan: async (email, next) => {
      oneOf('plan', next, PLANS);
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

async function contextOf(opts: SandboxOptions): Promise<SandboxContext> {
  const tokenTtlMs = opts.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS;
  if (!(tokenTtlMs > 0)) throw new TypeError('tokenTtlMs must be positive');
  const passwordCost = opts.passwordCost ?? PASSWORD_COST;
  if (!(passwordCost > 1 && Number.isInteger(Math.log2(passwordCost))))
    throw new TypeError('passwordCost must be a power of two above 1');
  return {
    plan: oneOf('plan', opts.plan ?? 'free', PLANS),
    shape: oneOf('shape', opts.shape ?? 'spec', SHAPES),
    store: await Store.open(opts.dataDir),
    now: opts.now ?? Date.now,
    tokenTtlMs,
    // An empty secret would let an empty body field pass, so it counts as no secret.
    internalToken: opts.internalToken === '' ? undefined : opts.internalToken,
    passwordCost,
  };
}

function oneOf<T>(name: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value))
    throw new TypeError(`unknown ${name} ${JSON.stringify(value)}: one of ${allowed.join(', ')}`);
  return value;
}

/** A wildcard bind is reached through loopback by the clients on this machine. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
