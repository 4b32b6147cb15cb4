import { STATUS_CODES } from 'node:http';
import type { HandlerResult } from './router.js';

export type Interface = 'platform' | 'cleaning';

/** The cleaning service owns `/api/v1/...`; platform paths carry no version prefix (spec 9). */
export function interfaceOf(path: string): Interface {
  return path === '/api/v1' || path.startsWith('/api/v1/') ? 'cleaning' : 'platform';
}

function reason(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown';
}

/** Spec 2.1. */
export function platformOk(response: unknown, status: 200 | 201 = 200): HandlerResult {
  return {
    status,
    body: { version: 'v1', status: true, statusCode: status, details: reason(status), statusMessage: 'success', response },
  };
}

/** Spec 2.10: the cleaning envelope carries its payload in `result`. */
export function cleaningOk(message: string, result: unknown, status: 200 | 201 = 200): HandlerResult {
  return { status, body: { message, status: true, statusCode: status, result } };
}

export function failureBody(
  iface: Interface,
  status: number,
  message: string,
  errors?: Record<string, string[]>,
): Record<string, unknown> {
  const body: Record<string, unknown> =
    iface === 'platform'
      ? { version: 'v1', status: false, statusCode: status, details: reason(status), statusMessage: 'error', message }
      : { message, status: false, statusCode: status };
  if (errors !== undefined) body['errors'] = errors;
  return body;
}
