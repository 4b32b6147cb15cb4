/** A failure a handler wants the client to see; the server renders it in the interface's envelope. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const UNAUTHENTICATED = 'Unauthenticated.';

export function unauthenticated(): HttpError {
  return new HttpError(401, UNAUTHENTICATED, undefined, { 'www-authenticate': 'Bearer' });
}

/** One message for an unknown email and a wrong password alike, so neither is revealed. */
export const INVALID_CREDENTIALS = 'Invalid email or password.';
