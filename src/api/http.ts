import type { Dispatcher } from 'undici';
import { ApiError, AuthError, NetworkError } from '../errors.js';
import { describeFailure, parseBody, fieldErrorsOf } from './failure.js';
import { redactJson, redactUrl } from './redact.js';
import { backoffMs, type BackoffPolicy } from './backoff.js';
import type { SecretSet } from '../secrets.js';

/** Account commands wait little between attempts: 250 ms, 500 ms, 1 s ... up to 8 s. */
const REQUEST_BACKOFF: BackoffPolicy = { firstMs: 250, capMs: 8_000 };

export type Method = 'GET' | 'POST';

export interface HttpClientOptions {
  /** Base URL, e.g. https://api.example.com (paths are appended as given). */
  baseUrl: string;
  /** What users call this service in messages: "platform", "cleaning service". */
  serviceName: string;
  token?: () => string | undefined;
  timeoutMs?: number;
  /** Attempts after the first, for failures that are safe to repeat. */
  retries?: number;
  /** Longest Retry-After we wait for before giving up with a message. */
  maxRetryWaitMs?: number;
  dispatcher?: Dispatcher;
  /** Masked in every answer as it arrives, so no message, file or log built from one repeats a secret. */
  secrets?: SecretSet;
  /** The proxies the dispatcher may go through, so a failure to reach one is named as such. */
  proxies?: string[];
  debug?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RequestSpec {
  method: Method;
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Safe to repeat after a failure whose effect is unknown (timeouts, resets, 5xx). GET always is. */
  idempotent?: boolean;
  /** Overrides the client's retry count (0: the caller retries itself). */
  retries?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A failure we may retry, with the server's wait if it named one. */
class Retryable extends Error {
  constructor(
    readonly failure: Error,
    readonly waitMs?: number,
  ) {
    super(failure.message);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'answer stalled',
};

/** TLS verdicts on a certificate: what the user can do about each differs from a network failure. */
const TLS_CODES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate is signed by an authority this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'its TLS certificate is signed by an authority this machine does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is signed by an authority this machine does not know',
  CERT_UNTRUSTED: 'its TLS certificate is not trusted',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  CERT_NOT_YET_VALID: 'its TLS certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};
const UNTRUSTED_HINT =
  'if a proxy or your organisation signs certificates with its own authority, point NODE_EXTRA_CA_CERTS at that authority\'s PEM file';

export class HttpClient {
  private readonly base: URL;

  constructor(private readonly opts: HttpClientOptions) {
    this.base = new URL(opts.baseUrl);
  }

  get host(): string {
    return this.base.host;
  }

  /** Sends one request, retrying only what is safe, and returns a 2xx answer or throws a typed error. */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    const retries = spec.retries ?? this.opts.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(spec, attempt);
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (attempt >= retries) throw error.failure;
        const wait = error.waitMs ?? backoffMs(attempt + 1, REQUEST_BACKOFF, this.opts.random);
        if (wait > (this.opts.maxRetryWaitMs ?? 30_000)) throw error.failure;
        this.log(`retry ${attempt + 1}/${retries} in ${Math.round(wait)}ms: ${error.message}`);
        await (this.opts.sleep ?? delay)(wait);
      }
    }
  }

  private url(spec: RequestSpec): URL {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const url = new URL(this.base.href);
    url.pathname = basePath + spec.path;
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    return url;
  }

  /** One attempt: send, then read the answer; failures worth another attempt are thrown as Retryable. */
  private async once(spec: RequestSpec, attempt: number): Promise<HttpResponse> {
    const idempotent = spec.idempotent ?? spec.method === 'GET';
    const raw = await this.transport(spec, attempt, idempotent);
    return this.interpret(spec, raw, idempotent);
  }

  private headersFor(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'mailclean' };
    if (spec.auth !== false) {
      const token = this.opts.token?.();
      if (token) headers.authorization = `Bearer ${token}`;
    }
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  /** The request on the wire; a connection that fails becomes a NetworkError (retryable when safe). */
  private async transport(spec: RequestSpec, attempt: number, idempotent: boolean): Promise<{ status: number; headers: Record<string, string>; text: string }> {
    const { request } = await import('undici');
    const url = this.url(spec);
    const payload = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    this.log(`> ${spec.method} ${redactUrl(url.href)}${attempt ? ` (attempt ${attempt + 1})` : ''}`);
    if (payload !== undefined) this.log(`> body ${redactJson(spec.body)}`);
    const started = performance.now();
    const timeout = this.opts.timeoutMs ?? 30_000;
    const signals = [AbortSignal.timeout(timeout), ...(spec.signal ? [spec.signal] : [])];
    try {
      const res = await request(url, {
        method: spec.method,
        headers: this.headersFor(spec),
        body: payload,
        dispatcher: this.opts.dispatcher,
        signal: AbortSignal.any(signals),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const text = await res.body.text();
      const answer = { status: res.statusCode, headers: flattenHeaders(res.headers), text: this.opts.secrets?.redact(text) ?? text };
      this.log(`< ${answer.status} in ${elapsed(started)}`);
      return answer;
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason ?? error;
      const failure = this.networkFailure(error, timeout);
      this.log(`< failed after ${elapsed(started)}: ${failure.message}`);
      // A certificate does not change between attempts; a refused connection never reached the server.
      if (codeOf(error, TLS_CODES)) throw failure;
      if (idempotent || codeOf(error, NETWORK_CODES) === 'ECONNREFUSED') throw new Retryable(failure);
      throw failure;
    }
  }

  /** A 2xx JSON answer is returned; anything else is thrown as a typed error, Retryable where that is safe. */
  private interpret(spec: RequestSpec, raw: { status: number; headers: Record<string, string>; text: string }, idempotent: boolean): HttpResponse {
    const { status, headers } = raw;
    const parsed = parseBody(raw.text, headers['content-type']);
    if (parsed.json !== undefined) this.log(`< body ${redactJson(parsed.json, 600)}`);
    if (status >= 200 && status < 300) {
      if (parsed.json !== undefined) return { status, headers, body: parsed.json };
      const garbled = new ApiError(
        `the ${this.opts.serviceName} at ${this.host} answered ${spec.method} ${spec.path} with a body that is not JSON${parsed.excerpt ? ` (${parsed.excerpt})` : ''}`,
        status,
      );
      throw idempotent ? new Retryable(garbled) : garbled;
    }
    const failure = this.httpFailure(status, parsed, spec);
    if (failure instanceof ApiError) {
      failure.headers = headers;
      failure.body = parsed.json;
    }
    if (status === 429 || status === 503) throw new Retryable(failure, retryAfterMs(headers));
    if (idempotent && (status === 500 || status === 502 || status === 504)) throw new Retryable(failure);
    throw failure;
  }

  private httpFailure(status: number, parsed: ReturnType<typeof parseBody>, spec: RequestSpec): ApiError | AuthError {
    const detail = describeFailure(parsed);
    if (status === 401) {
      return new AuthError(`the ${this.opts.serviceName} at ${this.host} refused the credentials${detail ? `: ${detail}` : ''}`);
    }
    const fieldErrors = fieldErrorsOf(parsed.json);
    if (status === 422 || (status === 400 && fieldErrors)) {
      const lines = fieldErrors
        ? Object.entries(fieldErrors).map(([field, messages]) => `${field}: ${messages.join('; ')}`).join('; ')
        : detail;
      return new ApiError(`the ${this.opts.serviceName} rejected the request: ${lines || 'invalid input'}`, status, fieldErrors, 2);
    }
    const what = `${spec.method} ${spec.path}`;
    return new ApiError(`the ${this.opts.serviceName} at ${this.host} answered ${status} to ${what}${detail ? `: ${detail}` : ''}`, status, fieldErrors);
  }

  private networkFailure(error: unknown, timeoutMs: number): NetworkError {
    const tls = codeOf(error, TLS_CODES);
    if (tls) {
      const hint = tls === 'CERT_HAS_EXPIRED' || tls === 'CERT_NOT_YET_VALID' ? "check this machine's clock, or tell the service's operators" : tls === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'check the URL: the certificate names another host' : UNTRUSTED_HINT;
      return new NetworkError(`cannot reach the ${this.opts.serviceName} at ${this.host}: ${TLS_CODES[tls]} (${tls})`, hint);
    }
    const code = codeOf(error, NETWORK_CODES);
    const name = error instanceof Error ? error.name : '';
    let reason = code ? NETWORK_CODES[code] : undefined;
    if (!reason && (name === 'TimeoutError' || name === 'AbortError')) reason = `no answer within ${Math.round(timeoutMs / 1000)}s`;
    reason ??= error instanceof Error ? error.message : String(error);
    const proxy = this.opts.proxies?.find((p) => failedAt(error) === URL.parse(p)?.host);
    if (proxy) {
      return new NetworkError(`cannot reach the proxy ${redactUrl(proxy)} on the way to the ${this.opts.serviceName} at ${this.host}: ${reason}`, 'check HTTP_PROXY, HTTPS_PROXY and NO_PROXY');
    }
    return new NetworkError(`cannot reach the ${this.opts.serviceName} at ${this.host}: ${reason}`, 'check the URL (`mailclean config get api-url`) and your connection');
  }

  private log(line: string): void {
    this.opts.debug?.(`[${this.opts.serviceName}] ${line}`);
  }
}

/** The first code among `known` on the error or its causes (undici wraps Node's socket errors). */
function codeOf(error: unknown, known: Record<string, string>): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code in known) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `host:port` a socket failed to reach, as Node's errors name it. */
function failedAt(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const { address, port } = e as { address?: unknown; port?: unknown };
    if (typeof address === 'string' && typeof port === 'number') return `${address.includes(':') ? `[${address}]` : address}:${port}`;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Retry-After in seconds or as an HTTP date, else RateLimit-Reset (seconds). */
export function retryAfterMs(headers: Record<string, string>, now = Date.now()): number | undefined {
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = headers['ratelimit-reset'] ?? headers['x-ratelimit-reset'];
  if (reset !== undefined) {
    const seconds = Number(reset);
    // Some servers send an epoch time here rather than a delta.
    if (Number.isFinite(seconds)) return seconds > 1e9 ? Math.max(0, seconds * 1000 - now) : Math.max(0, seconds * 1000);
  }
  return undefined;
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)}ms`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
