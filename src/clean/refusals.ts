// What a failed answer of the cleaning service means for a batch: the month's allowance is gone, or a retry may help.
import { ApiError, NetworkError } from '../errors.js';

// A monthly refusal is told apart from the rate limit by what its message speaks of.
const ALLOWANCE_WORDS = /month|quota|allowance|plan|credit|subscription|usage limit/i;

/** 402; or a 403, or a 429 without rate-limit headers, whose message speaks of a monthly limit. */
export function isAllowanceRefusal(error: ApiError): boolean {
  if (error.status === 402) return true;
  if (error.status === 429 && (error.headers['retry-after'] !== undefined || error.headers['ratelimit-reset'] !== undefined || error.headers['ratelimit-remaining'] !== undefined)) {
    return false;
  }
  if (error.status !== 403 && error.status !== 429) return false;
  return ALLOWANCE_WORDS.test(error.message);
}

export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) return error.status >= 500 || (error.status >= 200 && error.status < 300) || error.status === 408;
  return false;
}
