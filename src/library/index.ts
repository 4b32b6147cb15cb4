// `import { clean, verify, createClient, suggest } from 'mailclean'`: the library API (docs/api.md). This module stays
// light: what a call needs is loaded when it is made (suggest's domain lists aside, which it needs at once).
export type { PrecheckOutcome } from '../clean/check/precheck.js';
export type { DryRunFields } from '../clean/run/dry-run.js';
export type { RunEvent as CleanEvent, RunProgress, RunQuestions as CleanQuestions } from '../clean/run/events.js';
export type { RunSummary } from '../clean/run/summary.js';
export type { InputEncoding } from '../clean/scan/input/encodings.js';
export type { OutputFormat } from '../clean/write/formats/index.js';
export { ApiError, AuthError, CancelError, CliError, ExitCode, NetworkError, UsageError } from '../errors.js';
export { clean, createClient, verify } from './api.js';
export { suggest } from './suggest.js';
export type {
  CheckOptions,
  CleanInput,
  CleanOptions,
  CleanResult,
  CleanRun,
  Client,
  ClientOptions,
  EngineRequest,
  InputRow,
  ResultColumns,
  ResultRow,
  VerifyEvent,
  VerifyOptions,
  VerifyResult,
} from './types.js';
