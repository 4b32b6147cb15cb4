import { ApiError, type AuthError, NetworkError } from '../errors.js';
import { redactJson, redactUrl } from '../redact.js';
import { AnswerTooLarge, readCapped } from './answer-body.js';
import { type BackoffPolicy, backoffMs } from './backoff.js';
import { connectionFailure, isCertificateFailure, isRefused } from './connection-failures.js';
import { httpFailure, type ParsedBody, parseBody } from './failure.js';
import { flattenHeaders, retryAfterMs } from './headers.js';
import type { HttpClientOptions, HttpResponse, RawAnswer, RequestSpec } from './http-types.js';
import { request } from './undici-parts.js';

/** No answer of either service needs more; a larger one is refused before it fills memory. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Account commands wait little between attempts: a person is waiting for the answer. */
const REQUEST_BACKOFF: BackoffPolicy = { firstMs: 250, capMs: 8_000 };

export type { HttpClientOptions, HttpResponse, Method, RawAnswer, RequestSpec } from './http-types.js';

interface Received {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** An answer that would have been retried, once the retries are spent: it is the answer. */
class LastAnswer extends Error {
  constructor(readonly answer: RawAnswer) {
    super(answer.failure?.message ?? `answered ${answer.status}`);
  }
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

  /** The base URL (redacted) and the setting naming it, as failures carry them. */
  get endpoint(): { url: string; setting: string } {
    return { url: redactUrl(this.base.href), setting: this.opts.setting ?? 'api-url' };
  }

  /** Sends one request, retrying only what is safe, and returns a 2xx answer or throws a typed error. */
  async request(spec: RequestSpec): Promise<HttpResponse> {
    try {
      return await this.withRetries(spec, (attempt) => this.once(spec, attempt));
    } catch (error) {
      if (error instanceof ApiError || error instanceof NetworkError) error.endpoint = this.endpoint;
      throw error;
    }
  }

  /** One request, retried as `request` is, whose last answer comes back whatever its status or body. */
  async exchange(spec: RequestSpec): Promise<RawAnswer> {
    const idempotent = spec.idempotent ?? spec.method === 'GET';
    try {
      return await this.withRetries(spec, async (attempt) => {
        const received = await this.transport(spec, attempt, idempotent);
        const parsed = parseBody(received.text, received.headers['content-type']);
        const answer: RawAnswer = { ...received, json: parsed.json };
        if (received.status >= 200 && received.status < 300) return answer;
        answer.failure = this.failureOf(spec, received, parsed);
        if (shouldRetry(received.status, idempotent))
          throw new Retryable(new LastAnswer(answer), retryAfterMs(received.headers));
        return answer;
      });
    } catch (error) {
      if (error instanceof LastAnswer) return error.answer;
      throw error;
    }
  }

  /** Attempts after the first for failures thrown as Retryable, after backoff or the server's wait. */
  private async withRetries<T>(spec: RequestSpec, attemptOnce: (attempt: number) => Promise<T>): Promise<T> {
    const retries = spec.retries ?? this.opts.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        return await attemptOnce(attempt);
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

  /** The URL a request goes to: the base's path, then the spec's (dot segments resolved), then the query. */
  url(spec: Pick<RequestSpec, 'path' | 'query'>): URL {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const url = new URL(this.base.href);
    url.pathname = basePath + spec.path;
    for (const [k, v] of Object.entries(spec.query ?? {}))
      for (const value of v === undefined ? [] : [v].flat()) url.searchParams.append(k, value);
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
  private async transport(spec: RequestSpec, attempt: number, idempotent: boolean): Promise<Received> {
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
        setting: this.opts.setting,
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
  private interpret(spec: RequestSpec, raw: Received, idempotent: boolean): HttpResponse {
    const { status, headers } = raw;
    const parsed = parseBody(raw.text, headers['content-type']);
    if (parsed.json !== undefined) this.log(() => `< body ${redactJson(parsed.json, 600)}`);
    if (status >= 200 && status < 300) {
      if (parsed.json !== undefined) return { status, headers, body: parsed.json };
      const garbled = new ApiError(
        `the ${this.opts.serviceName} at ${this.host} answered ${spec.method} ${spec.path} with a body that is not JSON${parsed.excerpt ? ` (${parsed.excerpt})` : ''}`,
        status,
      );
      garbled.html = parsed.html === true;
      throw idempotent ? new Retryable(garbled) : garbled;
    }
    const failure = this.failureOf(spec, raw, parsed);
    if (shouldRetry(status, idempotent)) throw new Retryable(failure, retryAfterMs(headers));
    throw failure;
  }

  private failureOf(spec: RequestSpec, raw: Received, parsed: ParsedBody): ApiError | AuthError {
    const failure = httpFailure(raw.status, parsed, {
      serviceName: this.opts.serviceName,
      host: this.host,
      spec,
      refusedHint: this.opts.refusedHint,
    });
    if (failure instanceof ApiError) {
      failure.headers = raw.headers;
      failure.body = parsed.json;
      failure.html = parsed.html === true;
    }
    return failure;
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
