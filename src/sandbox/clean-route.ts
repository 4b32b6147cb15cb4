import type { Rate } from '../config/rate.js';
import { checkSyntax } from '../verify/syntax.js';
import { Engine, type EngineStatus } from '../verify/engine.js';
import { authenticate } from './auth.js';
import {
  admit,
  monthKey,
  monthlyAllowance,
  nextMonthStart,
  rateHeaders,
  usageOf,
  usedThisMonth,
  windowSeconds,
} from './clean-limits.js';
import { newObjectId } from './crypto.js';
import { cleaningOk, failureBody, type Shape } from './envelopes.js';
import { HttpError, unauthenticated } from './errors.js';
import type { Fault, FaultInjector } from './faults.js';
import type { HandlerResult, ParsedRequest, Router, SandboxContext } from './router.js';
import type { Plan } from './state.js';
import { isoMillis } from './time.js';
import { BodyChecker } from './validate.js';

export const CLEAN_PATH = '/api/v1/email-verify/validate/clean';
/** Spec 8: addresses per request. */
export const MAX_ADDRESSES = 50;

export type AllowanceStatus = 402 | 403 | 429;
export const ALLOWANCE_STATUSES: readonly AllowanceStatus[] = [402, 403, 429];

/** Counters of one sandbox handle (in memory, not persisted), for tests and benchmarks. */
export interface SandboxStats {
  /** Requests admitted by the rate limit (each one an arrival in the log). */
  cleanRequests: number;
  /** 429s for the request rate. */
  rateLimited: number;
  /** Refusals for the monthly allowance. */
  allowanceRefused: number;
  /** 422s (after admission). */
  validationFailed: number;
  /** Requests that were processed and charged (answered whole or truncated). */
  cleaned: number;
  addressesCharged: number;
  /** Most elements in the `email` array of one admitted request, valid or not (a client's batch size). */
  largestRequest: number;
  /** `truncatedCharged`: addresses charged in answers that were then cut (a client must pay for them again). */
  faults: { serverError: number; reset: number; truncated: number; truncatedCharged: number };
  /** Most admitted arrivals of one user inside any window of the configured rate's length. */
  maxArrivalsInAnyWindow: number;
}

export function emptyStats(): SandboxStats {
  return {
    cleanRequests: 0,
    rateLimited: 0,
    allowanceRefused: 0,
    validationFailed: 0,
    cleaned: 0,
    addressesCharged: 0,
    largestRequest: 0,
    faults: { serverError: 0, reset: 0, truncated: 0, truncatedCharged: 0 },
    maxArrivalsInAnyWindow: 0,
  };
}

export interface CleanRouteSettings {
  rate: Rate;
  allowanceStatus: AllowanceStatus;
  faults: FaultInjector;
  /** Updated in place. */
  stats: SandboxStats;
}

export function addCleanRoute(router: Router, settings: CleanRouteSettings): void {
  router.add('POST', CLEAN_PATH, async (req, ctx) => {
    // Latency holds back every answer of this route, refusals included.
    const delayMs = settings.faults.latencyMs();
    const result = await clean(req, ctx, settings);
    return delayMs > 0 ? { ...result, delayMs } : result;
  });
}


type Checked = { ok: true; emails: string[] } | { ok: false; error: HttpError };

/**
 * `email`: an array of 1 to 50 strings, each a valid address. Array-level problems are keyed
 * `email`; each bad element `email.<index>` (0-based), as Laravel reports array elements.
 */
export function checkEmails(body: Record<string, unknown>): Checked {
  const c = new BodyChecker(body);
  const raw = body['email'];
  if (raw === undefined || raw === null) {
    c.add('email', 'The email field is required.');
  } else if (!Array.isArray(raw)) {
    c.add('email', 'The email field must be an array.');
  } else {
    if (raw.length === 0) c.add('email', 'The email field must have at least 1 item.');
    if (raw.length > MAX_ADDRESSES) c.add('email', `The email field must not have more than ${MAX_ADDRESSES} items.`);
    raw.forEach((value: unknown, i) => {
      if (typeof value !== 'string') c.add(`email.${i}`, `The email.${i} must be a string.`);
      else if (!checkSyntax(value).ok) c.add(`email.${i}`, `The email.${i} must be a valid email address.`);
    });
  }
  try {
    c.check();
  } catch (err) {
    if (err instanceof HttpError) return { ok: false, error: err };
    throw err;
  }
  return { ok: true, emails: raw as string[] };
}

export interface EmailStatus {
  status: EngineStatus;
  valid: boolean;
  isDisposable: boolean;
  isValidDomain: boolean;
}

// The sandbox answers from the validation engine without DNS: the service's own checks are unknown, and a
// sandbox must never reach beyond this machine.
const engine = new Engine({ dns: { enabled: false } });

/** The engine's verdict in the record fields of spec 2.10. */
export function verdict(email: string): EmailStatus {
  const v = engine.verifyLocal(email);
  const badDomain = v.reason === 'syntax' || v.reason === 'reserved_domain';
  return { status: v.status, valid: v.valid === true, isDisposable: v.isDisposable, isValidDomain: v.isValidDomain ?? !badDomain };
}

function errorResult(shape: Shape, err: HttpError, headers: Record<string, string> = {}): HandlerResult {
  return {
    status: err.status,
    body: failureBody(shape, 'cleaning', err),
    headers: { ...err.headers, ...headers },
  };
}

class RateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('rate limited');
  }
}

type Outcome =
  | { kind: 'fault'; fault: Fault }
  | { kind: 'invalid'; error: HttpError }
  | { kind: 'refused'; plan: Plan; allowance: number; left: number }
  | { kind: 'charged'; count: number };

interface Decision {
  remaining: number;
  resetSeconds: number;
  fault: Fault;
  outcome: Outcome;
}

async function clean(req: ParsedRequest, ctx: SandboxContext, s: CleanRouteSettings): Promise<HandlerResult> {
  let userId: string;
  try {
    userId = authenticate(req, ctx, 'clean');
  } catch (err) {
    if (err instanceof HttpError) return errorResult(ctx.shape, err);
    throw err;
  }
  const checked = checkEmails(req.body);

  let decision: Decision;
  let inWindow = 0;
  let now = 0;
  try {
    // One mutation decides everything, so the check and the record of an arrival or a charge are
    // atomic within this process, and a request costs one write. A 429 throws: nothing is written.
    decision = await ctx.store.mutate((draft): Decision => {
      // Read the clock here, not on arrival: requests reach this point one at a time, so the log
      // is recorded in time order even when several were waiting on the store.
      now = ctx.now();
      const user = Object.hasOwn(draft.cleanUsers, userId) ? draft.cleanUsers[userId] : undefined;
      if (!user) throw unauthenticated();
      const usage = usageOf(draft, userId);
      const admission = admit(usage, now, s.rate);
      if (!admission.admitted) throw new RateLimited(admission.retryAfterSeconds);
      inWindow = admission.inWindow;
      const base = { remaining: admission.remaining, resetSeconds: admission.resetSeconds };

      // Faults come after the arrival is counted and before anything is charged.
      const fault = s.faults.roll();
      if (fault.kind === 'server-error' || fault.kind === 'reset') return { ...base, fault, outcome: { kind: 'fault', fault } };
      if (!checked.ok) return { ...base, fault, outcome: { kind: 'invalid', error: checked.error } };

      const count = checked.emails.length;
      const allowance = monthlyAllowance(user.plan);
      const used = usedThisMonth(usage, now);
      if (allowance !== undefined && count > allowance - used) {
        return { ...base, fault, outcome: { kind: 'refused', plan: user.plan, allowance, left: Math.max(0, allowance - used) } };
      }
      usage.month = monthKey(now);
      usage.used = used + count;
      return { ...base, fault, outcome: { kind: 'charged', count } };
    });
  } catch (err) {
    if (err instanceof RateLimited) {
      s.stats.rateLimited += 1;
      const message = `Too many requests: ${s.rate.requests} per ${windowSeconds(s.rate.windowMs)} seconds.`;
      return errorResult(ctx.shape, new HttpError(429, message), {
        'retry-after': String(err.retryAfterSeconds),
        ...rateHeaders(s.rate, 0, err.retryAfterSeconds),
      });
    }
    if (err instanceof HttpError) return errorResult(ctx.shape, err);
    throw err;
  }

  const stats = s.stats;
  stats.cleanRequests += 1;
  stats.maxArrivalsInAnyWindow = Math.max(stats.maxArrivalsInAnyWindow, inWindow);
  const submitted = req.body['email'];
  if (Array.isArray(submitted)) stats.largestRequest = Math.max(stats.largestRequest, submitted.length);
  const headers = rateHeaders(s.rate, decision.remaining, decision.resetSeconds);
  const result = answer(decision.outcome, headers, now, userId, checked, s, ctx.shape);
  if (decision.fault.kind === 'truncate') {
    stats.faults.truncated += 1;
    if (decision.outcome.kind === 'charged') stats.faults.truncatedCharged += decision.outcome.count;
    return { ...result, transport: 'truncate' };
  }
  return result;
}

function answer(
  outcome: Outcome,
  headers: Record<string, string>,
  now: number,
  userId: string,
  checked: Checked,
  s: CleanRouteSettings,
  shape: Shape,
): HandlerResult {
  const stats = s.stats;
  switch (outcome.kind) {
    case 'fault': {
      const fault = outcome.fault;
      if (fault.kind === 'reset') {
        stats.faults.reset += 1;
        return { status: 0, body: undefined, transport: 'reset' };
      }
      stats.faults.serverError += 1;
      return serverError(shape, fault.kind === 'server-error' ? fault.status : 500, headers);
    }
    case 'invalid':
      stats.validationFailed += 1;
      return errorResult(shape, outcome.error, headers);
    case 'refused': {
      stats.allowanceRefused += 1;
      const message =
        shape === 'alt'
          ? `You have exceeded your monthly email cleaning limit on the ${outcome.plan} plan: ${outcome.allowance} per month, ${outcome.left} left.`
          : `Monthly email cleaning limit reached for the ${outcome.plan} plan (${outcome.allowance} per month); ` +
            `${outcome.left} left this month; it renews on ${nextMonthStart(now)}.`;
      // No Retry-After, even as a 429: waiting minutes does not help, and that is how clients tell it from the rate limit.
      return errorResult(shape, new HttpError(s.allowanceStatus, message), headers);
    }
    case 'charged': {
      stats.cleaned += 1;
      stats.addressesCharged += outcome.count;
      const emails = checked.ok ? checked.emails : [];
      const at = isoMillis(now);
      const records = emails.map((email) => ({
        _id: newObjectId(now),
        userId,
        email,
        emailStatus: verdict(email),
        createdAt: at,
        updatedAt: at,
      }));
      return { ...cleaningOk('Emails cleaned', records), headers };
    }
  }
}

function serverError(shape: Shape, status: 500 | 502 | 503, headers: Record<string, string>): HandlerResult {
  if (status === 502) {
    // What a reverse proxy in front of the service sends when the backend is gone: HTML, not JSON.
    return {
      status,
      body: undefined,
      raw: {
        contentType: 'text/html; charset=utf-8',
        text: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n',
      },
      headers,
    };
  }
  const message = status === 503 ? 'Service temporarily unavailable.' : 'Internal server error.';
  // A 503 deliberately without Retry-After: clients must back off on their own.
  return { status, body: failureBody(shape, 'cleaning', new HttpError(status, message)), headers };
}
