import { ApiError, AuthError } from '../errors.js';
import { type AllowanceNews, allowanceNews } from './allowance.js';
import type { HttpClient } from './http.js';
import { findToken, isObject, type Json, payloads, str } from './shape.js';

export interface CleanSignedIn {
  token: string;
  userId?: string;
  allowance: AllowanceNews;
}

function findUserId(body: unknown): string | undefined {
  const user = payloads(body).find((payload) => isObject(payload.user))?.user;
  return isObject(user) ? (str(user._id) ?? str(user.id)) : undefined;
}

/** Where a clean answer keeps its records: `result` per the spec; `data` or `results` tolerated. */
export function findRecords(body: unknown): Json[] | undefined {
  if (Array.isArray(body)) return body.filter(isObject);
  if (!isObject(body)) return undefined;
  for (const key of ['result', 'results', 'data']) {
    const value = body[key];
    if (Array.isArray(value)) return value.filter(isObject);
    if (isObject(value)) {
      const inner = findRecords(value);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The email cleaning interface (spec 4.7, 4.8). */
export class CleaningClient {
  constructor(readonly http: HttpClient) {}

  /** One request, never retried here: each attempt costs a rate-limit slot and maybe allowance, so the run decides. */
  async clean(emails: string[], signal?: AbortSignal): Promise<Json[]> {
    const res = await this.send(emails, signal);
    const records = findRecords(res.json);
    if (!records) {
      throw Object.assign(
        new ApiError(`the cleaning service at ${this.http.host} answered without a result list`, res.status),
        { body: res.json },
      );
    }
    return records;
  }

  /** Whether the service takes the token, spending no allowance: an empty request is refused 422 once it passed. */
  async tokenCheck(signal?: AbortSignal): Promise<'accepted' | 'rejected'> {
    try {
      await this.send([], signal);
      return 'accepted';
    } catch (error) {
      if (error instanceof AuthError) return 'rejected';
      // Refused for what the request holds, or for the allowance: either way the token itself was taken.
      if (
        error instanceof ApiError &&
        (error.status === 422 || error.status === 400 || error.status === 402 || error.status === 403)
      )
        return 'accepted';
      throw error;
    }
  }

  private send(emails: string[], signal?: AbortSignal) {
    const path = '/api/v1/email-verify/validate/clean';
    return this.http.request({ method: 'POST', path, body: { email: emails }, retries: 0, idempotent: true, signal });
  }

  async signup(input: { name?: string; email: string; password: string }): Promise<CleanSignedIn> {
    const res = await this.http.request({ method: 'POST', path: '/api/v1/auth/signup', body: input, auth: false });
    return this.signedIn(res.json, 'signup');
  }

  async signin(email: string, password: string): Promise<CleanSignedIn> {
    // Signing in twice is harmless, so a lost answer may be retried.
    const res = await this.http.request({
      method: 'POST',
      path: '/api/v1/auth/signin',
      body: { email, password },
      auth: false,
      idempotent: true,
    });
    return this.signedIn(res.json, 'signin');
  }

  private signedIn(body: unknown, what: string): CleanSignedIn {
    const token = findToken(body);
    if (!token)
      throw new ApiError(`the cleaning service's ${what} answer from ${this.http.host} carries no token`, 200);
    return { token, userId: findUserId(body), allowance: allowanceNews(undefined, body) };
  }
}

export type { Json };
