import type { Rate } from '../config/rate.js';
import { checkSyntax } from '../verify/syntax.js';
import { authenticate } from './auth.js';
import { type AllowanceStatus, answer, errorResult, type Outcome } from './clean-answers.js';
import {
  type Admission,
  admit,
  monthKey,
  monthlyAllowance,
  rateHeaders,
  usageOf,
  usedThisMonth,
  windowSeconds,
} from './clean-limits.js';
import { HttpError, Unauthenticated } from './errors.js';
import type { Fault, FaultInjector } from './faults.js';
import type { HandlerResult, ParsedRequest, Route, SandboxContext } from './router.js';
import type { SandboxState } from './state.js';
import { BodyChecker } from './validate.js';

export const CLEAN_PATH = '/api/v1/email-verify/validate/clean';
/** Spec 8: addresses per request. */
export const MAX_ADDRESSES = 50;

/** Counters of one sandbox handle (in memory, not persisted), for tests and benchmarks. */
export type SandboxStats = ReturnType<typeof emptyStats>;

export function emptyStats() {
  return {
    /** Requests admitted by the rate limit. */
    cleanRequests: 0,
    rateLimited: 0,
    allowanceRefused: 0,
    /** 422s after admission. */
    validationFailed: 0,
    /** Requests processed and charged (answered whole or truncated). */
    cleaned: 0,
    addressesCharged: 0,
    /** Most elements in the `email` array of one admitted request: a client's batch size. */
    largestRequest: 0,
    faults: {
      serverError: 0,
      reset: 0,
      truncated: 0,
      /** Addresses charged in answers that were then cut: a client must pay for them again. */
      truncatedCharged: 0,
      /** Injected 422s naming one address, or none (not in `validationFailed`). */
      rejected: 0,
      rejectedUnnamed: 0,
      /** Charged answers that left out one record. */
      dropped: 0,
    },
    /** Most admitted arrivals of one user inside any window of the rate's length. */
    maxArrivalsInAnyWindow: 0,
    /** When the first and the last clean request arrived (epoch ms). */
    firstArrivalAt: null as number | null,
    lastArrivalAt: null as number | null,
  };
}

export interface CleanRouteSettings {
  rate: Rate;
  allowanceStatus: AllowanceStatus;
  faults: FaultInjector;
  stats: SandboxStats;
}

export function cleanRoute(settings: CleanRouteSettings): Route {
  return {
    method: 'POST',
    pattern: CLEAN_PATH,
    handler: async (req, ctx) => {
      // Latency holds back every answer of this route, refusals included.
      const delayMs = settings.faults.latencyMs();
      const result = await clean(req, ctx, settings);
      return delayMs > 0 ? { ...result, delayMs } : result;
    },
  };
}

type Checked = { ok: true; emails: string[] } | { ok: false; error: HttpError };

/** `email`: 1 to 50 valid addresses; a bad element is keyed `email.<index>`, as Laravel reports array elements. */
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
  const error = c.problem();
  return error ? { ok: false, error } : { ok: true, emails: raw as string[] };
}

/** What one admitted request gets, decided in one mutation of the store. */
type Decision = Extract<Admission, { admitted: true }> & { now: number; fault: Fault; outcome: Outcome };

async function clean(req: ParsedRequest, ctx: SandboxContext, s: CleanRouteSettings): Promise<HandlerResult> {
  let userId: string;
  let decision: Decision;
  const checked = checkEmails(req.body);
  try {
    userId = authenticate(req, ctx, 'clean');
    // One mutation decides and records everything: atomic within this process, one write. A 429 writes nothing.
    decision = await ctx.store.mutate((draft) => decide(draft, userId, checked, ctx.now(), s));
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    if (err.status === 429) s.stats.rateLimited += 1;
    return errorResult(ctx.shape, err);
  }
  count(s.stats, decision, req.body);
  const result = answer(decision.outcome, {
    shape: ctx.shape,
    now: decision.now,
    userId,
    allowanceStatus: s.allowanceStatus,
    headers: rateHeaders(s.rate, decision.remaining, decision.resetSeconds),
  });
  return decision.fault.kind === 'truncate' ? { ...result, transport: 'truncate' } : result;
}

/**
 * Admits the request (or throws a 429), rolls its fault, and charges it when valid and within the allowance.
 * `now` is read inside the mutation, so arrivals are logged in time order.
 */
function decide(draft: SandboxState, userId: string, checked: Checked, now: number, s: CleanRouteSettings): Decision {
  const user = Object.hasOwn(draft.cleanUsers, userId) ? draft.cleanUsers[userId] : undefined;
  if (!user) throw new Unauthenticated();
  const usage = usageOf(draft, userId);
  const admission = admit(usage, now, s.rate);
  if (!admission.admitted) throw rateLimited(s.rate, admission.retryAfterSeconds);
  // Faults come after the arrival is counted and before anything is charged.
  const fault = s.faults.roll();
  const decided = (outcome: Outcome): Decision => ({ ...admission, now, fault, outcome });
  if (fault.kind === 'server-error' || fault.kind === 'reset') return decided({ kind: 'fault', fault });
  if (!checked.ok) return decided({ kind: 'invalid', error: checked.error });
  const count = checked.emails.length;
  if (fault.kind === 'reject') return decided({ kind: 'rejected', index: Math.floor(fault.at * count) });
  if (fault.kind === 'reject-unnamed') return decided({ kind: 'rejected' });

  const allowance = monthlyAllowance(user.plan);
  const used = usedThisMonth(usage, now);
  if (allowance !== undefined && count > allowance - used) {
    return decided({ kind: 'refused', plan: user.plan, allowance, left: Math.max(0, allowance - used) });
  }
  usage.month = monthKey(now);
  usage.used = used + count;
  const omit = fault.kind === 'drop' ? Math.floor(fault.at * count) : undefined;
  return decided({ kind: 'charged', emails: checked.emails, omit });
}

function count(stats: SandboxStats, decision: Decision, body: Record<string, unknown>): void {
  stats.cleanRequests += 1;
  stats.maxArrivalsInAnyWindow = Math.max(stats.maxArrivalsInAnyWindow, decision.inWindow);
  stats.firstArrivalAt ??= decision.now;
  stats.lastArrivalAt = decision.now;
  const submitted = body['email'];
  if (Array.isArray(submitted)) stats.largestRequest = Math.max(stats.largestRequest, submitted.length);
  const { outcome, fault } = decision;
  const { faults } = stats;
  if (outcome.kind === 'fault') faults[outcome.fault.kind === 'reset' ? 'reset' : 'serverError'] += 1;
  else if (outcome.kind === 'invalid') stats.validationFailed += 1;
  else if (outcome.kind === 'rejected') faults[outcome.index === undefined ? 'rejectedUnnamed' : 'rejected'] += 1;
  else if (outcome.kind === 'refused') stats.allowanceRefused += 1;
  else {
    stats.cleaned += 1;
    stats.addressesCharged += outcome.emails.length;
    if (outcome.omit !== undefined) faults.dropped += 1;
  }
  if (fault.kind === 'truncate') {
    faults.truncated += 1;
    if (outcome.kind === 'charged') faults.truncatedCharged += outcome.emails.length;
  }
}

function rateLimited(rate: Rate, retryAfterSeconds: number): HttpError {
  const message = `Too many requests: ${rate.requests} per ${windowSeconds(rate.windowMs)} seconds.`;
  const headers = { 'retry-after': String(retryAfterSeconds), ...rateHeaders(rate, 0, retryAfterSeconds) };
  return new HttpError(429, message, undefined, headers);
}
