import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxOptions } from './server.js';
import type { Store } from './store.js';

export interface ParsedRequest {
  method: string;
  /** Path without query string, trailing slash removed. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Values of `:name` segments of the matched pattern, already percent-decoded. */
  params: Record<string, string>;
  /** The JSON body; `{}` when the request had none. The server rejects bodies that are not objects. */
  body: Record<string, unknown>;
}

export interface HandlerResult {
  status: number;
  /** Sent as JSON, unless `raw` is given. */
  body: unknown;
  headers?: Record<string, string>;
  /** A body sent verbatim with its content type instead of JSON (an HTML error page from a gateway). */
  raw?: { contentType: string; text: string };
  /** Fault injection: hold the answer back this many milliseconds. */
  delayMs?: number;
  /** Fault injection: `reset` closes without answering; `truncate` sends half the body under a full Content-Length. */
  transport?: 'reset' | 'truncate';
}

/** What every handler may use. Settings are resolved, so handlers never see undefined defaults. */
export interface SandboxContext
  extends Required<Pick<SandboxOptions, 'now' | 'tokenTtlMs' | 'plan' | 'shape' | 'passwordCost'>> {
  store: Store;
  internalToken: string | undefined;
}

export type Handler = (req: ParsedRequest, ctx: SandboxContext) => Promise<HandlerResult>;

export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

/** A method and a path pattern: literal segments and `:name` captures of one non-empty segment each. */
export interface Route {
  method: string;
  pattern: string;
  handler: Handler;
}

/** The routes as given, refusing a method and pattern given twice (captures count as alike whatever their names). */
export function routeTable(routes: Route[]): Route[] {
  const seen = new Set<string>();
  for (const { method, pattern } of routes) {
    const key = `${method} ${splitPath(pattern).map((s) => (s.startsWith(':') ? ':' : s))}`;
    if (seen.has(key)) throw new Error(`route already registered: ${method} ${pattern}`);
    seen.add(key);
  }
  return routes;
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  const segments = splitPath(path);
  const allow = new Set<string>();
  for (const route of routes) {
    const params = matchSegments(splitPath(route.pattern), segments);
    if (!params) continue;
    if (route.method === method) return { kind: 'found', handler: route.handler, params };
    allow.add(route.method);
  }
  return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow].sort() } : { kind: 'not-found' };
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  try {
    for (const [i, p] of pattern.entries()) {
      if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(actual[i] as string);
      else if (p !== actual[i]) return undefined;
    }
  } catch {
    // A capture that is not valid percent-encoding matches nothing.
    return undefined;
  }
  return params;
}
