// What the HTTP client is given and gives back.
import type { Dispatcher } from 'undici';
import type { ApiError, AuthError } from '../errors.js';
import type { SecretSet } from '../secrets.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface HttpClientOptions {
  /** Base URL, e.g. https://api.example.com (paths are appended as given). */
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
  /** Longest Retry-After we wait for before giving up with a message. */
  maxRetryWaitMs?: number;
  dispatcher?: Dispatcher;
  /** Answers larger than this are refused (default: MAX_ANSWER_BYTES in http.ts). */
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

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** An answer whatever its status or body (`mailclean api`), with the error `request` would have thrown for it. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** As it came, but the secrets this command holds masked. */
  text: string;
  json?: unknown;
  /** For a status outside 2xx: AuthError on 401, else ApiError. */
  failure?: ApiError | AuthError;
}
