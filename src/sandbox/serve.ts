// One request through the sandbox: read and check it, route it, and send the answer (or the injected fault).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { failureBody, interfaceOf } from './envelopes.js';
import { HttpError } from './errors.js';
import { isJson, refuseBrowsers, refuseOtherNames } from './guards.js';
import { type HandlerResult, matchRoute, type ParsedRequest, type Route, type SandboxContext } from './router.js';

const MAX_BODY_BYTES = 1024 * 1024;

export interface Serving {
  routes: readonly Route[];
  ctx: SandboxContext;
  /** One line per request: method, path, status, duration; never secrets or bodies. */
  log: ((line: string) => void) | undefined;
  boundHost: string;
}

export async function serve(req: IncomingMessage, res: ServerResponse, serving: Serving): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const { path, query } = splitUrl(req.url ?? '/');
  let result: HandlerResult;
  try {
    refuseOtherNames(req, serving.boundHost);
    result = await dispatch(req, method, path, query, serving);
  } catch (err) {
    result = failure(serving.ctx, path, err);
  }
  await send(req, res, result);
  const outcome =
    result.transport === 'reset' ? 'reset' : `${result.status}${result.transport === 'truncate' ? ' truncated' : ''}`;
  serving.log?.(`${method} ${path} ${outcome} ${Math.round(performance.now() - started)}ms`);
}

async function dispatch(
  req: IncomingMessage,
  method: string,
  path: string,
  query: URLSearchParams,
  { routes, ctx }: Serving,
): Promise<HandlerResult> {
  const match = matchRoute(routes, method, path);
  if (match.kind === 'not-found') throw new HttpError(404, `No route for ${method} ${path}.`);
  if (match.kind === 'method-not-allowed') {
    const allow = match.allow.join(', ');
    throw new HttpError(405, `Method ${method} is not allowed here; use ${allow}.`, undefined, { allow });
  }
  refuseBrowsers(req);
  const raw = await readBody(req);
  if (raw.length > 0 && !isJson(req.headers['content-type']))
    throw new HttpError(415, 'The request body must be JSON, sent as Content-Type: application/json.');
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
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HttpError(400, 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

function failure(ctx: SandboxContext, path: string, err: unknown): HandlerResult {
  // Internal details stay out of the response; the status alone tells the client to retry or report.
  const known = err instanceof HttpError ? err : new HttpError(500, 'Internal server error.');
  return { status: known.status, body: failureBody(ctx.shape, interfaceOf(path), known), headers: known.headers };
}

async function send(req: IncomingMessage, res: ServerResponse, result: HandlerResult): Promise<void> {
  // Unref'd: a delayed answer must not keep a closed sandbox's process alive.
  if (result.delayMs !== undefined && result.delayMs > 0) await sleep(result.delayMs, undefined, { ref: false });
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
