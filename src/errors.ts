// Typed failures. main.ts is the only place that turns them into a message and an exit code.

export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  partial: 3,
  /** A --fail-when condition holds: the outputs are written, the job should fail. */
  threshold: 5,
  auth: 4,
  interrupted: 130,
} as const;

/** What a failure says, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class CliError extends Error {
  // Named here, not from the class: a minified bundle renames classes, and programs read `name`.
  override name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number = ExitCode.error,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Bad flag, unreadable or malformed input, a missing value with prompts off. */
export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

export class AuthError extends CliError {
  override name = 'AuthError';

  constructor(message: string, hint = 'run `mailclean login`') {
    super(message, ExitCode.auth, hint);
  }
}

/** Where a failed request went: the service's base URL (redacted) and the setting that names it (`clean-url`). */
export interface Endpoint {
  url: string;
  setting: string;
}

export class ApiError extends CliError {
  override name = 'ApiError';
  /** The answer's headers and parsed JSON body, for callers that decide by them (the clean pipeline). */
  headers: Record<string, string> = {};
  body: unknown;
  /** The body was an HTML page (a web server or proxy answered, not the API). */
  html = false;
  endpoint?: Endpoint;

  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors?: Record<string, string[]>,
    exitCode: number = ExitCode.error,
    hint?: string,
  ) {
    super(message, exitCode, hint);
  }
}

export class NetworkError extends CliError {
  override name = 'NetworkError';
  endpoint?: Endpoint;

  /** `reached` false: the request never left this machine (refused, no such host, no route, a certificate refused). */
  constructor(
    message: string,
    hint?: string,
    readonly reached = true,
  ) {
    super(message, ExitCode.error, hint);
  }
}

/** The user cancelled (Ctrl-C at a prompt, or SIGINT during work). */
export class CancelError extends CliError {
  override name = 'CancelError';

  constructor(message = 'cancelled') {
    super(message, ExitCode.interrupted);
  }
}

/** Already reported to the user; only the exit code is left to give. */
export class SilentError extends CliError {
  override name = 'SilentError';

  constructor(exitCode: number) {
    super('', exitCode);
  }
}
