import { STATUS_CODES } from 'node:http';
import { type HttpError, Unauthenticated } from './errors.js';
import type { HandlerResult } from './router.js';

export type Interface = 'platform' | 'cleaning';

/** `spec` and `alt`: two independent readings of what the spec leaves open (docs/assumptions.md), both tested. */
export type Shape = 'spec' | 'alt';
export const SHAPES: readonly Shape[] = ['spec', 'alt'];

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
    body: {
      version: 'v1',
      status: true,
      statusCode: status,
      details: reason(status),
      statusMessage: 'success',
      response,
    },
  };
}

/** Spec 2.10: the cleaning envelope carries its payload in `result`. */
export function cleaningOk(message: string, result: unknown, status: 200 | 201 = 200): HandlerResult {
  return { status, body: { message, status: true, statusCode: status, result } };
}

export function failureBody(shape: Shape, iface: Interface, err: HttpError): Record<string, unknown> {
  const { status, message, errors } = err;
  if (shape === 'alt') {
    // A framework's auth guard answers before any envelope is built.
    if (err instanceof Unauthenticated) return { message };
    if (iface === 'platform') {
      return {
        version: 'v1',
        status: false,
        statusCode: status,
        details: reason(status),
        statusMessage: errors !== undefined ? 'The given data was invalid.' : message,
        response: errors !== undefined ? { errors } : null,
      };
    }
    return { status: false, statusCode: status, message, result: errors !== undefined ? { errors } : null };
  }
  const body: Record<string, unknown> =
    iface === 'platform'
      ? { version: 'v1', status: false, statusCode: status, details: reason(status), statusMessage: 'error', message }
      : { message, status: false, statusCode: status };
  if (errors !== undefined) body['errors'] = errors;
  return body;
}
