import { Engine } from '../verify/index.js';
import { nextMonthStart } from './clean-limits.js';
import { newObjectId } from './crypto.js';
import { cleaningOk, failureBody, type Shape } from './envelopes.js';
import { HttpError } from './errors.js';
import type { Fault } from './faults.js';
import type { HandlerResult } from './router.js';
import type { Plan } from './state.js';
import { isoMillis } from './time.js';

export type AllowanceStatus = 402 | 403 | 429;
export const ALLOWANCE_STATUSES: readonly AllowanceStatus[] = [402, 403, 429];

/** What became of an admitted request of the clean route. */
export type Outcome =
  | { kind: 'fault'; fault: Fault }
  | { kind: 'invalid'; error: HttpError }
  /** A 422 the fault injection made up, naming the address at `index`, or none. */
  | { kind: 'rejected'; index?: number }
  | { kind: 'refused'; plan: Plan; allowance: number; left: number }
  /** Charged for every address; with `omit`, the answer leaves out the record of the address at that index. */
  | { kind: 'charged'; emails: string[]; omit?: number };

/** What an answer says besides its outcome. */
export interface Answering {
  shape: Shape;
  now: number;
  userId: string;
  allowanceStatus: AllowanceStatus;
  /** The rate-limit headers every answer of an admitted request carries. */
  headers: Record<string, string>;
}

export function answer(outcome: Outcome, a: Answering): HandlerResult {
  switch (outcome.kind) {
    case 'fault':
      if (outcome.fault.kind === 'reset') return { status: 0, body: undefined, transport: 'reset' };
      return serverError(a.shape, outcome.fault.kind === 'server-error' ? outcome.fault.status : 500, a.headers);
    case 'invalid':
      return errorResult(a.shape, outcome.error, a.headers);
    case 'rejected':
      return errorResult(a.shape, rejection(outcome.index), a.headers);
    case 'refused':
      // No Retry-After, even as a 429: waiting does not help, and that is how clients tell it from the rate limit.
      return errorResult(a.shape, new HttpError(a.allowanceStatus, refusalMessage(outcome, a)), a.headers);
    case 'charged':
      return {
        ...cleaningOk(
          'Emails cleaned',
          records(outcome.emails, a).filter((_, i) => i !== outcome.omit),
        ),
        headers: a.headers,
      };
  }
}

export function errorResult(shape: Shape, err: HttpError, headers: Record<string, string> = {}): HandlerResult {
  return {
    status: err.status,
    body: failureBody(shape, 'cleaning', err),
    headers: { ...err.headers, ...headers },
  };
}

/** As a service refuses an address its own rules dislike (Laravel's message for `in`/`exists`), or the whole batch. */
function rejection(index: number | undefined): HttpError {
  const field = index === undefined ? 'email' : `email.${index}`;
  const message = index === undefined ? 'The email field is invalid.' : `The selected ${field} is invalid.`;
  return new HttpError(422, message, { [field]: [message] });
}

function refusalMessage(refusal: { plan: Plan; allowance: number; left: number }, a: Answering): string {
  const { plan, allowance, left } = refusal;
  return a.shape === 'alt'
    ? `You have exceeded your monthly email cleaning limit on the ${plan} plan: ${allowance} per month, ${left} left.`
    : `Monthly email cleaning limit reached for the ${plan} plan (${allowance} per month); ` +
        `${left} left this month; it renews on ${nextMonthStart(a.now)}.`;
}

// Without DNS: the service's own checks are unknown, and a sandbox must never reach beyond this machine.
const engine = new Engine({ dns: { enabled: false } });

/** The engine's verdict in the record fields of spec 2.10. */
export function verdict(email: string) {
  const v = engine.verifyLocal(email);
  const badDomain = v.reason === 'syntax' || v.reason === 'reserved_domain';
  return {
    status: v.status,
    valid: v.valid === true,
    isDisposable: v.isDisposable,
    isValidDomain: v.isValidDomain ?? !badDomain,
  };
}

function records(emails: string[], a: Answering): Record<string, unknown>[] {
  const at = isoMillis(a.now);
  return emails.map((email) => ({
    _id: newObjectId(a.now),
    userId: a.userId,
    email,
    emailStatus: verdict(email),
    createdAt: at,
    updatedAt: at,
  }));
}

// What a reverse proxy in front of the service sends when the backend is gone: HTML, not JSON.
const BAD_GATEWAY_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n';

function serverError(shape: Shape, status: 500 | 502 | 503, headers: Record<string, string>): HandlerResult {
  if (status === 502) {
    return {
      status,
      body: undefined,
      raw: { contentType: 'text/html; charset=utf-8', text: BAD_GATEWAY_PAGE },
      headers,
    };
  }
  const message = status === 503 ? 'Service temporarily unavailable.' : 'Internal server error.';
  // A 503 deliberately without Retry-After: clients must back off on their own.
  return { status, body: failureBody(shape, 'cleaning', new HttpError(status, message)), headers };
}
