import type { IncomingHttpHeaders } from 'node:http';
import type { Shape } from './envelopes.js';
import type { Plan } from './state.js';
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
export interface SandboxContext {
  store: Store;
  now: () => number;
  tokenTtlMs: number;
  internalToken: string | undefined;
  plan: Plan;
  shape: Shape;
  /** scrypt's N for the passwords stored from now on. */
  passwordCost: number;
}

export type Handler = (req: ParsedRequest, ctx: SandboxContext) => Promise<HandlerResult>;

export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/** Method + path pattern table: literal segments and `:name` captures of one non-empty segment each. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    const segments = splitPath(pattern);
    const upper = method.toUpperCase();
    if (this.routes.some((r) => r.method === upper && samePattern(r.segments, segments))) {
      throw new Error(`route already registered: ${upper} ${pattern}`);
    }
    this.routes.push({ method: upper, segments, handler });
    return this;
  }

  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method.toUpperCase()) return { kind: 'found', handler: route.handler, params };
      allow.add(route.method);
    }
    return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow].sort() } : { kind: 'not-found' };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function samePattern(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((s, i) => (s.startsWith(':') ? b[i]?.startsWith(':') : s === b[i]));
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const a = actual[i] as string;
    if (p.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(a);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = decoded;
    } else if (p !== a) {
      return undefined;
    }
  }
  return params;
}
