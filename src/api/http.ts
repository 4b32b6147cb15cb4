// One HTTP client for a service: it retries what is safe to repeat, caps and masks each response, types each failure.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { ApiError, type AuthError, NetworkError } from '../errors.js';
import { redactJson, redactUrl } from '../redact.js';
import type { SecretSet } from '../secrets.js';
import { type BackoffPolicy, backoffMs } from './backoff.js';
import { connectionFailure, isCertificateFailure, isRefused } from './connection-failures.js';
import { httpFailure, parseBody } from './failure.js';
import { flattenHeaders, retryAfterMs } from './headers.js';
import { ResponseTooLarge, readCapped } from './response-body.js';
import { request } from './undici-parts.js';

/** No response of either service needs more; a larger one is refused before it fills memory. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** The longest Retry-After waited for before giving up with a message. */
const MAX_RETRY_WAIT_MS = 30_000;

/** Account commands wait little between attempts: a person is waiting for the response. */
const REQUEST_BACKOFF: BackoffPolicy = { firstMs: 250, capMs: 8_000 };

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface HttpClientOptions {
  /** Paths are appended to its own path as given. */
  baseUrl: string;
  /** What users call this service in messages: "platform", "cleaning service". */
  serviceName: string;
  /** The setting that names `baseUrl` (`api-url`, `clean-url`), for messages that say what to fix. */
  setting?: string;
  token?: () => string | undefined;
  /** What to do when the service refuses the token (401), naming where it came from (a variable, the profile). */
  refusedHint?: string;
  timeoutMs?: number;
  /** Attempts after the first, for failures that are safe to repeat. */
  retries?: number;
  dispatcher?: Dispatcher;
  /** Masked in every response as it arrives, so no message, file or log built from one repeats a secret. */
  secrets?: SecretSet;
  /** The proxies the dispatcher may go through, so a failure to reach one is named as such. */
  proxies?: string[];
  debug?: (line: string) => void;
}

export interface RequestSpec {
  method: Method;
  path: string;
  /** Appended to the path's own query; a list repeats its name. */
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Safe to repeat after a failure whose effect is unknown (timeouts, resets, 5xx). GET always is. */
  idempotent?: boolean;
  /** Overrides the client's retry count (0: the caller retries itself). */
  retries?: number;
  signal?: AbortSignal;
}

/** A response whatever its status or body, with the error it means to `request` (401: AuthError, else ApiError). */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  /** As it came, but the secrets this command holds masked. */
  text: string;
  json?: unknown;
  failure?: ApiError | AuthError;
}

/** What one attempt came to, and whether another is safe and may help. */
interface Attempt {
  result: HttpResponse | NetworkError;
  retry: boolean;
}

export class HttpClient {
  private readonly base: URL;

  constructor(private readonly opts: HttpClientOptions) {
    this.base = new URL(opts.baseUrl);
  }

  get host(): string {
    return this.base.host;
  }

  /** The base URL (redacted) and the setting naming it, as failures carry them. */
  get endpoint(): { url: string; setting: string } {
    return { url: redactUrl(this.base.href), setting: this.opts.setting ?? 'api-url' };
  }

  /** Sends one request, retrying only what is safe, and returns a 2xx JSON response or throws a typed error. */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    try {
      const response = await this.send(spec, true);
      if (response.failure) throw response.failure;
      return response;
    } catch (error) {
      if (error instanceof ApiError || error instanceof NetworkError) error.endpoint = this.endpoint;
      throw error;
    }
  }

  /** One request, retried as `request` is, whose last response comes back whatever its status or body. */
  exchange(spec: RequestSpec): Promise<HttpResponse> {
    return this.send(spec, false);
  }

  /** The URL a request goes to: the base's path, then the spec's (dot segments resolved), then the query. */
  url(spec: Pick<RequestSpec, 'path' | 'query'>): URL {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const url = new URL(this.base.href);
    url.pathname = basePath + spec.path;
    for (const [k, v] of Object.entries(spec.query ?? {}))
      for (const value of v === undefined ? [] : [v].flat()) url.searchParams.append(k, value);
    return url;
  }

  /** Attempts until one needs no other, the retries are spent, or the server asks for too long a wait. */
  private async send(spec: RequestSpec, needsJson: boolean): Promise<HttpResponse> {
    const idempotent = spec.idempotent ?? spec.method === 'GET';
    const retries = spec.retries ?? this.opts.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const { result, retry } = await this.attempt(spec, attempt, idempotent, needsJson);
      const failure = result instanceof NetworkError ? result : result.failure;
      if (retry && failure && attempt < retries) {
        const asked = result instanceof NetworkError ? undefined : retryAfterMs(result.headers);
        const wait = asked ?? backoffMs(attempt + 1, REQUEST_BACKOFF);
        if (wait <= MAX_RETRY_WAIT_MS) {
          this.log(`retry ${attempt + 1}/${retries} in ${Math.round(wait)}ms: ${failure.message}`);
          await sleep(wait);
          continue;
        }
      }
      if (result instanceof NetworkError) throw result;
      return result;
    }
  }

  private async attempt(spec: RequestSpec, attempt: number, idempotent: boolean, needsJson: boolean): Promise<Attempt> {
    const started = performance.now();
    const timeoutMs = this.opts.timeoutMs ?? 30_000;
    let response: HttpResponse;
    try {
      response = await this.transport(spec, attempt, timeoutMs);
    } catch (error) {
      if (spec.signal?.aborted) throw spec.signal.reason ?? error;
      if (error instanceof ApiError) throw error;
      const failure = connectionFailure(error, { ...this.opts, host: this.host, timeoutMs });
      this.log(`< failed after ${elapsed(started)}: ${failure.message}`);
      // A certificate does not change between attempts; a refused connection never reached the server.
      return { result: failure, retry: !isCertificateFailure(error) && (idempotent || isRefused(error)) };
    }
    this.log(`< ${response.status} in ${elapsed(started)}`);
    return this.judge(spec, response, idempotent, needsJson);
  }

  /** The request on the wire, and its response read up to the size limit, secrets masked. */
  private async transport(spec: RequestSpec, attempt: number, timeoutMs: number): Promise<HttpResponse> {
    const url = this.url(spec);
    const payload = spec.body !== undefined ? JSON.stringify(spec.body) : undefined;
    this.log(`> ${spec.method} ${redactUrl(url.href)}${attempt ? ` (attempt ${attempt + 1})` : ''}`);
    if (payload !== undefined) this.log(() => `> body ${redactJson(spec.body)}`);
    const deadline = requestDeadline(timeoutMs, spec.signal);
    try {
      const res = await request(url, {
        method: spec.method,
        headers: this.headersFor(spec),
        body: payload,
        dispatcher: this.opts.dispatcher,
        signal: deadline.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await readCapped(res.body, MAX_RESPONSE_BYTES, res.headers['content-length']).catch((error) => {
        if (!(error instanceof ResponseTooLarge)) throw error;
        const mib = `${MAX_RESPONSE_BYTES / 1024 / 1024} MiB`;
        throw this.unusable(spec, res.statusCode, `more than ${mib}, more than any answer needs`);
      });
      const headers = flattenHeaders(res.headers);
      return { status: res.statusCode, headers, text: this.opts.secrets?.redact(text) ?? text };
    } finally {
      deadline.end();
    }
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

  /** The response's JSON and the failure it means: a status outside 2xx, or (to `request`) a body that is not JSON. */
  private judge(spec: RequestSpec, response: HttpResponse, idempotent: boolean, needsJson: boolean): Attempt {
    const { status, headers } = response;
    const parsed = parseBody(response.text, headers['content-type']);
    if (parsed.json !== undefined) this.log(() => `< body ${redactJson(parsed.json, 600)}`);
    response.json = parsed.json;
    const html = parsed.html === true;
    if (status < 200 || status >= 300) {
      const where = { ...this.opts, host: this.host, spec };
      const failure = httpFailure(status, parsed, where);
      if (failure instanceof ApiError) Object.assign(failure, { headers, body: parsed.json, html });
      response.failure = failure;
      return { result: response, retry: shouldRetry(status, idempotent) };
    }
    if (parsed.json !== undefined || !needsJson) return { result: response, retry: false };
    const excerpt = parsed.excerpt ? ` (${parsed.excerpt})` : '';
    response.failure = Object.assign(this.unusable(spec, status, `a body that is not JSON${excerpt}`), { html });
    return { result: response, retry: idempotent };
  }

  private unusable(spec: RequestSpec, status: number, what: string): ApiError {
    const message = `the ${this.opts.serviceName} at ${this.host} answered ${spec.method} ${spec.path} with ${what}`;
    return new ApiError(message, status);
  }

  /** Bodies are given as a function: masking every address of every batch costs time nobody reads without --debug. */
  private log(line: string | (() => string)): void {
    const { debug } = this.opts;
    if (debug) debug(`[${this.opts.serviceName}] ${typeof line === 'string' ? line : line()}`);
  }
}

/** 429 and 503 ask to wait; 500, 502 and 504 may have been done: repeated only when that is safe. */
function shouldRetry(status: number, idempotent: boolean): boolean {
  return status === 429 || status === 503 || (idempotent && (status === 500 || status === 502 || status === 504));
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)}ms`;
}

/**
 * A request's signal: aborted by the caller's or at the deadline, and letting go of both when the request ends.
 * `AbortSignal.any` with the run's long-lived signal kept each request's signals until a collection, a run's worth.
 */
function requestDeadline(timeoutMs: number, outer: AbortSignal | undefined): { signal: AbortSignal; end(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    end: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', follow);
    },
  };
}
