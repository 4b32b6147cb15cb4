// `import { clean, verify, createClient } from 'mailclean'`: the library API (docs/api.md). This module stays light:
// what a call needs is loaded when it is made.

export type { DryRunFields } from '../clean/run/dry-run.js';
export type { RunEvent as CleanEvent, RunProgress, RunQuestions as CleanQuestions } from '../clean/run/events.js';
export type { RunSummary } from '../clean/run/summary.js';
export type { InputEncoding } from '../clean/scan/input/decode.js';
export type { OutputFormat } from '../clean/write/formats/index.js';
export { ApiError, AuthError, CancelError, CliError, ExitCode, NetworkError, UsageError } from '../errors.js';
export type { CheckOptions, CleanOptions } from './clean-options.js';
export type { CleanResult, CleanRun } from './clean-run.js';
export { type Client, clean, createClient, verify } from './client.js';
export type { CleanInput, InputRow } from './input.js';
export type { ResultRow } from './row-queue.js';
export type { ClientOptions } from './settings.js';
export type { VerifyEvent, VerifyOptions, VerifyResult } from './verify.js';
