import type { Dispatcher } from 'undici';
import { ApiError, AuthError } from '../errors.js';
import { redactJson, redactUrl } from '../redact.js';
import type { SecretSet } from '../secrets.js';
import { AnswerTooLarge, readCapped } from './answer-body.js';
import { type BackoffPolicy, backoffMs } from './backoff.js';
import { connectionFailure, isCertificateFailure, isRefused } from './connection-failures.js';
import { describeFailure, fieldErrorsOf, parseBody } from './failure.js';

/**
 * No answer of either service needs more: 50 verdicts are a few kilobytes. A larger one (a proxy's error page gone
 * wrong, a hostile server) is refused before it fills memory.
 */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

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
  /** Answers larger than this are refused (default 4 MiB). */
  maxAnswerBytes?: number;
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
  private async transport(
    spec: RequestSpec,
    attempt: number,
    idempotent: boolean,
  ): Promise<{ status: number; headers: Record<string, string>; text: string }> {
    const { request } = await import('undici');
    const url = this.url(spec);
    const payload = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    this.log(`> ${spec.method} ${redactUrl(url.href)}${attempt ? ` (attempt ${attempt + 1})` : ''}`);
    if (payload !== undefined) this.log(() => `> body ${redactJson(spec.body)}`);
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
      const limit = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
      const text = await readCapped(res.body, limit, res.headers['content-length']).catch((error: unknown) => {
        if (!(error instanceof AnswerTooLarge)) throw error;
        const mib = `${Math.round(limit / 1024 / 1024)} MiB`;
        throw new ApiError(
          `the ${this.opts.serviceName} at ${this.host} answered ${spec.method} ${spec.path} with more than ${mib}, more than any answer needs`,
          res.statusCode,
        );
      });
      const answer = {
        status: res.statusCode,
        headers: flattenHeaders(res.headers),
        text: this.opts.secrets?.redact(text) ?? text,
      };
      this.log(`< ${answer.status} in ${elapsed(started)}`);
      return answer;
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason ?? error;
      if (error instanceof ApiError) throw error;
      const failure = connectionFailure(error, {
        serviceName: this.opts.serviceName,
        host: this.host,
        timeoutMs: timeout,
        proxies: this.opts.proxies,
      });
      this.log(`< failed after ${elapsed(started)}: ${failure.message}`);
      // A certificate does not change between attempts; a refused connection never reached the server.
      if (isCertificateFailure(error)) throw failure;
      if (idempotent || isRefused(error)) throw new Retryable(failure);
      throw failure;
    }
  }

  /** A 2xx JSON answer is returned; anything else is thrown as a typed error, Retryable where that is safe. */
  private interpret(
    spec: RequestSpec,
    raw: { status: number; headers: Record<string, string>; text: string },
    idempotent: boolean,
  ): HttpResponse {
    const { status, headers } = raw;
    const parsed = parseBody(raw.text, headers['content-type']);
    if (parsed.json !== undefined) this.log(() => `< body ${redactJson(parsed.json, 600)}`);
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
      return new AuthError(
        `the ${this.opts.serviceName} at ${this.host} refused the credentials${detail ? `: ${detail}` : ''}`,
      );
    }
    const fieldErrors = fieldErrorsOf(parsed.json);
    if (status === 422 || (status === 400 && fieldErrors)) {
      const lines = fieldErrors
        ? Object.entries(fieldErrors)
            .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
            .join('; ')
        : detail;
      return new ApiError(
        `the ${this.opts.serviceName} rejected the request: ${lines || 'invalid input'}`,
        status,
        fieldErrors,
        2,
      );
    }
    const what = `${spec.method} ${spec.path}`;
    return new ApiError(
      `the ${this.opts.serviceName} at ${this.host} answered ${status} to ${what}${detail ? `: ${detail}` : ''}`,
      status,
      fieldErrors,
    );
  }

  /** Bodies are given as a function: masking every address of every batch costs time nobody reads without --debug. */
  private log(line: string | (() => string)): void {
    const { debug } = this.opts;
    if (debug) debug(`[${this.opts.serviceName}] ${typeof line === 'string' ? line : line()}`);
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
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
    if (Number.isFinite(seconds))
      return seconds > 1e9 ? Math.max(0, seconds * 1000 - now) : Math.max(0, seconds * 1000);
  }
  return undefined;
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)}ms`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
