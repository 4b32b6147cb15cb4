// What a run tells while it works, and what it asks before anything is paid. The service never prints or
// prompts: the command renders these events and answers the questions (a test or a library user may too).
import type { PrecheckOutcome } from '../check/precheck.js';
import type { KnownAllowance } from '../state/account-state.js';

export interface RunPorts {
  emit(event: RunEvent): void;
  /** Absent where nobody can answer (not a terminal, --no-input, CI): the run then does what its flags say. */
  questions?: RunQuestions;
}

export interface RunQuestions {
  /** An earlier run of this list saved `saved` answers and left `left` addresses unchecked. */
  earlierRun(facts: { saved: number; left: number; unique: number }): Promise<'resume' | 'restart' | 'cancel'>;
  /** This run will spend up to `addresses` of the allowance: go on? */
  confirmSpend(facts: { addresses: number; allowance?: KnownAllowance }): Promise<boolean>;
}

export interface RunProgress {
  phase: 'reading' | 'checking' | 'writing';
  rows: number;
  unique: number;
  toCheck: number;
  checked: number;
  spent: number;
  requests: number;
  waitingMs: number;
  etaMs?: number;
}

export type RunEvent =
  /** The live progress line: shown from `start` to `stop`, updated by `change`. */
  | { type: 'progress'; change: Partial<RunProgress> }
  | { type: 'progress-live'; live: boolean }
  /** A wait for the rate limit begins, of about `ms`. */
  | { type: 'limit-wait'; ms: number }
  /** How the input was read, where that is not plain: its encoding guessed; a workbook's sheet among others. */
  | {
      type: 'input-read';
      displayName: string;
      encodingGuessed: boolean;
      workbook?: { sheet: string; sheets: string[]; formulasWithoutResult: number };
    }
  /** The list as read: rows, unique addresses, cells decided at once, cells holding their address inside text. */
  | {
      type: 'scanned';
      displayName: string;
      column: string;
      rows: number;
      unique: number;
      blank: number;
      extracted: number;
    }
  /** Rows kept with another number of fields than the header (or the first row): how many, the first lines. */
  | { type: 'ragged'; rows: number; lines: number[]; columns: number; hasHeader: boolean }
  /** Another live run holds this list: this one waits for it. */
  | { type: 'list-busy'; owner: string }
  | { type: 'list-taken-over'; owner: string; why: string }
  | { type: 'journal-damaged'; lines: number; path: string }
  /** What an earlier run of this list answered: `already` of the list's `unique` addresses. */
  | { type: 'resumed'; already: number; unique: number }
  | { type: 'from-cache'; addresses: number; maxAgeMs: number }
  | { type: 'precheck'; outcome: PrecheckOutcome }
  /** The built-in engine keeps what the service answered before and checks the rest. */
  | { type: 'kept'; kept: number; toCheck: number; fromJournal: number; fromCache: number }
  /**
   * Addresses sent to the service whose answers are not journaled yet, at every change (before a request leaves):
   * a run killed now may have been billed for them. The run's record keeps the count (record-run.ts).
   */
  | { type: 'in-flight'; addresses: number }
  /** The first signal was heard: the requests in flight finish first. */
  | { type: 'stopping' }
  /** Another runner of this account is checking these addresses: their answers are awaited. */
  | { type: 'awaiting-runner'; addresses: number }
  | { type: 'retry'; message: string }
  | { type: 'list-changed'; displayName: string }
  /** Nothing was checked, so the outputs that existed are left as they were. */
  | { type: 'outputs-kept'; outputs: string[] }
  | { type: 'nothing-sent' }
  | { type: 'interrupted'; answersSaved?: number }
  | { type: 'warning'; message: string }
  | { type: 'debug'; message: string };
