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

/** The 401 of a protected route (no, bad or expired token), as opposed to wrong credentials at login. */
export class Unauthenticated extends HttpError {
  constructor() {
    super(401, 'Unauthenticated.', undefined, { 'www-authenticate': 'Bearer' });
  }
}

/** One message for an unknown email and a wrong password alike, so neither is revealed. */
export const INVALID_CREDENTIALS = 'Invalid email or password.';

/** Registering an address that already has an account, in either service. */
export const EMAIL_TAKEN = 'The email has already been taken.';
