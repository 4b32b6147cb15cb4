// What a failed answer of the cleaning service means for a batch: the month's allowance is gone, or a retry may help.
import { type BackoffPolicy, backoffMs } from '../../../api/backoff.js';
import { retryAfterMs } from '../../../api/headers.js';
import { ApiError, AuthError, CliError, messageOf, NetworkError } from '../../../errors.js';
import { formatDuration } from '../../../quantities.js';
import type { StopReason } from '../outcome.js';

// A monthly refusal is told apart from the rate limit by what its message speaks of.
const ALLOWANCE_WORDS = /month|quota|allowance|plan|credit|subscription|usage limit/i;

/** 402; or a 403, or a 429 without rate-limit headers, whose message speaks of a monthly limit. */
export function isAllowanceRefusal(error: ApiError): boolean {
  if (error.status === 402) return true;
  if (
    error.status === 429 &&
    (error.headers['retry-after'] !== undefined ||
      error.headers['ratelimit-reset'] !== undefined ||
      error.headers['ratelimit-remaining'] !== undefined)
  ) {
    return false;
  }
  if (error.status !== 403 && error.status !== 429) return false;
  return ALLOWANCE_WORDS.test(error.message);
}

export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError)
    return (
      (error.status >= 500 && error.status !== 501) ||
      (error.status >= 200 && error.status < 300) ||
      error.status === 408
    );
  return false;
}

/** The request never reached a server (refused, no such host, no route): nothing there counted it. */
export function neverReached(error: unknown): boolean {
  return error instanceof NetworkError && !error.reached;
}

/** Statuses that say the URL leads to no such route at all: not found, method not allowed, not implemented. */
const NOT_THE_API = new Set([404, 405, 501]);

const notTheApi = (error: unknown): error is ApiError =>
  error instanceof ApiError && (NOT_THE_API.has(error.status) || (error.status < 300 && error.html));

// Before the service has answered once, a connection refused or an answer that does not speak the API means the URL
// leads to no cleaning service: retrying cannot help and nothing was counted, so the run ends at once.
export function leadsNowhere(error: unknown): boolean {
  return neverReached(error) || notTheApi(error);
}

/** The failure for `leadsNowhere`: one line naming the URL and the setting to fix (exit 1). */
export function noServiceError(error: ApiError | NetworkError): CliError {
  const { url, setting } = error.endpoint ?? { url: 'the URL', setting: 'clean-url' };
  const hint = `fix ${setting} (\`mailclean config set ${setting} URL\`, or --${setting} for one run), then run the same command again`;
  return notTheApi(error)
    ? new CliError(
        `${error.message}; ${setting} (${url}) does not lead to a cleaning service: nothing was spent`,
        1,
        hint,
      )
    : new CliError(`${error.message}; nothing was sent (${setting}: ${url})`, 1, hint);
}

/** A 429 naming no wait is retried after this long. */
const DEFAULT_RATE_WAIT_MS = 5_000;
/** Longer than this and the run stops rather than sit idle: `--resume` later costs nothing. */
const MAX_RATE_WAIT_MS = 15 * 60_000;
/** Refusals in a row, none answered between, after which the service is taken to count differently from us. */
const MAX_RATE_REFUSALS = 5;

// A 422: the addresses it names (`email.3`) are rejected and the rest go again; naming none, the batch goes again in
// halves, and an address refused alone is rejected.
export function splitRejected(keys: string[], error: ApiError): { rejected: string[]; retry: string[][] } {
  const named = rejectedPlaces(error, keys.length);
  if (named.size > 0) {
    const rest = keys.filter((_, i) => !named.has(i));
    return { rejected: [...named].map((i) => keys[i]!), retry: rest.length > 0 ? [rest] : [] };
  }
  if (keys.length === 1) return { rejected: keys, retry: [] };
  const half = Math.ceil(keys.length / 2);
  return { rejected: [], retry: [keys.slice(0, half), keys.slice(half)] };
}

/** The places in the batch (`email.3`, `emails[3]`) a 422 names, below `size`. */
function rejectedPlaces(error: ApiError, size: number): Set<number> {
  const named = new Set<number>();
  for (const field of Object.keys(error.fieldErrors ?? {})) {
    const m = /^emails?[.[](\d+)\]?$/.exec(field);
    if (m && Number(m[1]) < size) named.add(Number(m[1]));
  }
  return named;
}

export type AfterFailure =
  | { stop: StopReason; message: string; error?: CliError }
  | { allowance: ApiError }
  | { rejected: ApiError }
  /** Send the batch again after `waitMs` (`retry`: it counts as one more attempt). */
  | { waitMs: number; why: 'rate' | 'retry'; message: string };

export interface FailureContext {
  aborted: boolean;
  /** The service has answered a request of this run (so a refused connection now is a passing failure). */
  heard: boolean;
  rateRefusals: number;
  attempts: number;
  maxAttempts: number;
  now: number;
  random?: () => number;
}

const BATCH_BACKOFF: BackoffPolicy = { firstMs: 500, capMs: 15_000 };

export function afterFailure(error: unknown, ctx: FailureContext): AfterFailure {
  const message = messageOf(error);
  const cliError = error instanceof CliError ? error : undefined;
  if (ctx.aborted) return { stop: 'interrupted', message: 'interrupted' };
  if (error instanceof AuthError) return { stop: 'auth', message: error.message, error };
  if (!ctx.heard && leadsNowhere(error)) {
    const failure = noServiceError(error as ApiError | NetworkError);
    return { stop: 'no-service', message: failure.message, error: failure };
  }
  if (error instanceof ApiError && isAllowanceRefusal(error)) return { allowance: error };
  if (error instanceof ApiError && error.status === 429) {
    // A 429 for the rate limit, the `rateRefusals`-th in a row: wait as long as it asks, or stop and say why.
    const waitMs = retryAfterMs(error.headers, ctx.now) ?? DEFAULT_RATE_WAIT_MS;
    const stop =
      waitMs > MAX_RATE_WAIT_MS
        ? `the cleaning service asks to wait ${formatDuration(waitMs)} before the next request`
        : ctx.rateRefusals >= MAX_RATE_REFUSALS
          ? `the cleaning service refused ${ctx.rateRefusals} requests in a row for its rate limit`
          : undefined;
    return stop ? { stop: 'rate-limited', message: stop } : { waitMs, why: 'rate', message };
  }
  if (error instanceof ApiError && error.status === 422) return { rejected: error };
  if (!isTransient(error)) return { stop: 'service', message, error: cliError };
  if (ctx.attempts >= ctx.maxAttempts) {
    const kept = `the cleaning service kept failing (${ctx.attempts} attempts): ${message}`;
    return { stop: 'service', message: kept, error: cliError };
  }
  return { waitMs: backoffMs(ctx.attempts, BATCH_BACKOFF, ctx.random), why: 'retry', message };
}
