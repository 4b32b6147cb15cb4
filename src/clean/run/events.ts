// What a run tells while it works, and what it asks before anything is paid: the command renders and answers them.
import type { PrecheckOutcome } from '../check/precheck.js';
import type { KnownAllowance } from '../state/account-state.js';

export interface RunPorts {
  emit(event: RunEvent): void;
  /** Absent where nobody can answer (not a terminal, --no-input, CI): the run then does what its flags say. */
  questions?: RunQuestions;
}

export interface RunQuestions {
  earlierRun(facts: { saved: number; left: number; unique: number }): Promise<'resume' | 'restart' | 'cancel'>;
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
  | { type: 'progress'; change: Partial<RunProgress> }
  | { type: 'progress-live'; live: boolean }
  | { type: 'limit-wait'; ms: number }
  /** Told only where the input is not plain: its encoding guessed, a workbook's sheet among others. */
  | {
      type: 'input-read';
      displayName: string;
      encodingGuessed: boolean;
      workbook?: { sheet: string; sheets: string[]; formulasWithoutResult: number };
    }
  | {
      type: 'scanned';
      displayName: string;
      column: string;
      rows: number;
      unique: number;
      blank: number;
      extracted: number;
    }
  | { type: 'ragged'; rows: number; lines: number[]; columns: number; hasHeader: boolean }
  | { type: 'list-busy'; owner: string }
  | { type: 'list-taken-over'; owner: string; why: string }
  | { type: 'journal-damaged'; lines: number; path: string }
  | { type: 'resumed'; already: number; unique: number }
  | { type: 'from-cache'; addresses: number; maxAgeMs: number }
  | { type: 'precheck'; outcome: PrecheckOutcome }
  | { type: 'kept'; kept: number; toCheck: number; fromJournal: number; fromCache: number }
  /** Addresses sent whose answers are not journaled yet: a run killed now may have been billed for them. */
  | { type: 'in-flight'; addresses: number }
  | { type: 'stopping' }
  | { type: 'awaiting-runner'; addresses: number }
  | { type: 'retry'; message: string }
  | { type: 'list-changed'; displayName: string }
  /** Nothing was checked, so the outputs that existed are left as they were. */
  | { type: 'outputs-kept'; outputs: string[] }
  | { type: 'nothing-sent' }
  | { type: 'interrupted'; answersSaved?: number }
  | { type: 'warning'; message: string }
  | { type: 'debug'; message: string };
