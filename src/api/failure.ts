// Reading what a failed (or odd) answer says, whichever envelope or format it came in.
import { ApiError, AuthError, ExitCode } from '../errors.js';
import { isObject, payloads } from './shape.js';

export interface ParsedBody {
  json?: unknown;
  /** A short, single-line excerpt of a body that is not JSON. */
  excerpt?: string;
  html?: boolean;
}

export function parseBody(text: string, contentType = ''): ParsedBody {
  const trimmed = text.trim();
  if (trimmed === '') return { excerpt: '' };
  try {
    return { json: JSON.parse(trimmed) };
  } catch {
    const html = /html/i.test(contentType) || /^<(!doctype|html|head|body)/i.test(trimmed);
    return { excerpt: excerptOf(trimmed, html), html };
  }
}

/** An HTML error page becomes its title (or first text), never the page. */
function excerptOf(text: string, html: boolean): string {
  let plain = text;
  if (html) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    plain = title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ');
  }
  plain = plain.replace(/\s+/g, ' ').trim();
  const limit = 80;
  const short = plain.length > limit ? `${plain.slice(0, limit)}…` : plain;
  return html ? `HTML page: "${short}"` : `"${short}"`;
}

const MESSAGE_KEYS = ['message', 'error', 'error_description', 'detail', 'statusMessage', 'details'];
/** Words that say nothing beyond the status. */
const EMPTY_WORDS = new Set(['error', 'failure', 'failed', 'fail', 'success']);
// Not an ES import of 'node:http': reading every export loads Node's own copy of undici.
const { STATUS_CODES } = process.getBuiltinModule('node:http');
const REASON_TEXTS = new Set(Object.values(STATUS_CODES).map((r) => r?.toLowerCase()));

/** The human message of a failed answer; a specific one wins over a reason text such as "Unprocessable Entity". */
export function describeFailure(parsed: ParsedBody): string {
  if (parsed.json === undefined) return parsed.excerpt ?? '';
  const messages: string[] = [];
  for (const level of payloads(parsed.json)) {
    for (const key of MESSAGE_KEYS) {
      const value = level[key];
      const text =
        typeof value === 'string' ? value : isObject(value) && typeof value.message === 'string' ? value.message : '';
      if (text.trim() && !EMPTY_WORDS.has(text.trim().toLowerCase())) messages.push(oneLine(text));
    }
  }
  return messages.find((m) => !REASON_TEXTS.has(m.toLowerCase())) ?? messages[0] ?? '';
}

/** The error a status outside 2xx is: 401 needs a sign-in (exit 4), 422 names what was rejected (exit 2). */
export function httpFailure(
  status: number,
  parsed: ParsedBody,
  at: { serviceName: string; host: string; spec: { method: string; path: string }; refusedHint?: string },
): ApiError | AuthError {
  const detail = describeFailure(parsed);
  if (status === 401)
    return new AuthError(
      `the ${at.serviceName} at ${at.host} refused the credentials${detail ? `: ${detail}` : ''}`,
      at.refusedHint,
    );
  const fieldErrors = fieldErrorsOf(parsed.json);
  if (status === 422 || (status === 400 && fieldErrors)) {
    const lines = fieldErrors
      ? Object.entries(fieldErrors)
          .map(([field, messages]) => `${field}: ${messages.join('; ')}`)
          .join('; ')
      : detail;
    const message = `the ${at.serviceName} rejected the request: ${lines || 'invalid input'}`;
    return new ApiError(message, status, fieldErrors, ExitCode.usage);
  }
  const what = `${at.spec.method} ${at.spec.path}`;
  return new ApiError(
    `the ${at.serviceName} at ${at.host} answered ${status} to ${what}${detail ? `: ${detail}` : ''}`,
    status,
    fieldErrors,
  );
}

/** `errors` keyed by field (values a string or a list of strings), at the top level or in a payload. */
export function fieldErrorsOf(body: unknown): Record<string, string[]> | undefined {
  for (const level of payloads(body)) {
    const found = fieldErrorsIn(level.errors);
    if (found) return found;
  }
  return undefined;
}

function fieldErrorsIn(errors: unknown): Record<string, string[]> | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const out: Record<string, string[]> = {};
  if (Array.isArray(errors)) {
    // Some services send [{field|param|path, message|msg}].
    for (const item of errors) {
      if (!item || typeof item !== 'object') continue;
      const i = item as Record<string, unknown>;
      const field = String(i.field ?? i.param ?? i.path ?? 'request');
      const message = String(i.message ?? i.msg ?? 'invalid');
      (out[field] ??= []).push(oneLine(message));
    }
  } else {
    for (const [field, value] of Object.entries(errors as Record<string, unknown>)) {
      const messages = Array.isArray(value) ? value.map(String) : [String(value)];
      out[field] = messages.map(oneLine);
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
