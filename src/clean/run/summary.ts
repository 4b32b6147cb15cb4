// The summary of a run: what `--summary-json` writes (docs/json.md documents each field; their names are stable),
// and what the terminal summary, the GitHub job summary and the HTML report show.
import type { CheckOutcome, StopReason } from '../check/outcome.js';
import type { InputLayout } from '../scan/input/index.js';
import type { ScanResult } from '../scan/scan.js';
import { STATUSES } from '../verdict/verdict.js';
import { type DomainMix, sortedCounts, type Tally } from '../write/tally.js';
import type { WriteSummary } from '../write/write-rows.js';
import type { Checker } from './checker.js';
import type { KnownAnswers } from './known-answers.js';
import type { CleanRequest } from './request.js';

export interface OutputCount {
  path: string;
  role: 'output' | 'rejects';
  rows: number;
}

export interface RunSummary {
  version: 1;
  input: string;
  checker: 'service' | 'local';
  service: string | null;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  rows: number;
  unique: number;
  duplicates: number;
  blank: number;
  malformed: number;
  statuses: Record<string, number>;
  reasons: Record<string, number>;
  serviceStatuses: Record<string, number>;
  disposable: number;
  role: number;
  suggestions: Record<string, number>;
  providers: Record<string, number>;
  topDomains: DomainMix[];
  answered: { fromJournal: number; fromCache: number; sent: number };
  precheck: { saved: number; byReason: Record<string, number>; skipped: string | null } | null;
  spent: number;
  requests: number;
  retries: number;
  allowanceLeft: number | null;
  unchecked: { rows: number; reason: StopReason | null; message: string | null };
  outputs: OutputCount[];
  exitCode: number;
  ragged: { rows: number; lines: number[] };
  extracted: number;
  stopped: { reason: StopReason; message: string } | null;
  failedWhen: string[];
  /** --fix-typos: rows checked as their fix, and how many by `typo → fix` domain; absent without it. */
  fixes?: { rows: number; domains: Record<string, number> };
}

/** A run that checked: what its end writes and sums up. */
export interface Checked {
  layout: InputLayout;
  scan: ScanResult;
  startedAt: number;
  answers: KnownAnswers;
  outcome: CheckOutcome;
}

const TOP_DOMAINS = 20;

/** `outputs`: the files of rows written, each with its count. */
export function runSummary(
  request: CleanRequest,
  checker: Checker,
  run: Checked,
  { tally }: WriteSummary,
  outputs: OutputCount[],
): RunSummary {
  const now = request.clock.now();
  const { scan, outcome } = run;
  const counts = tally.counts();
  const unchecked = counts.byStatus.get('unchecked') ?? 0;
  const statuses = Object.fromEntries(
    STATUSES.filter((status) => counts.byStatus.has(status)).map(
      (status) => [status, counts.byStatus.get(status)!] as const,
    ),
  );
  return {
    version: 1,
    input: run.layout.displayName,
    checker: checker.kind,
    service: checker.service ?? null,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: new Date(now).toISOString(),
    durationMs: now - run.startedAt,
    rows: scan.rows,
    unique: scan.unique.size,
    duplicates: scan.duplicates,
    blank: scan.blank,
    malformed: scan.invalid,
    statuses,
    reasons: sortedCounts(counts.byReason),
    serviceStatuses: sortedCounts(counts.byServiceStatus),
    disposable: counts.disposable,
    role: counts.role,
    suggestions: sortedCounts(tally.suggestions),
    providers: sortedCounts(counts.byProvider),
    topDomains: tally.topDomains(TOP_DOMAINS),
    ...answeredOf(run),
    spent: outcome.spent,
    requests: outcome.requests,
    retries: outcome.retries,
    allowanceLeft: outcome.allowance?.left ?? checker.cost?.().allowance?.left ?? null,
    unchecked: {
      rows: unchecked,
      reason: unchecked > 0 ? (outcome.stopped?.reason ?? null) : null,
      message: unchecked > 0 ? (outcome.stopped?.message ?? null) : null,
    },
    outputs,
    exitCode: 0,
    ragged: { rows: scan.ragged.rows, lines: [...scan.ragged.lines] },
    extracted: scan.extracted,
    stopped: outcome.stopped ? { reason: outcome.stopped.reason, message: outcome.stopped.message } : null,
    failedWhen: [],
    ...(request.fixTypos !== undefined ? { fixes: fixesOf(tally) } : {}),
  };
}

function answeredOf({ answers, outcome }: Checked): Pick<RunSummary, 'answered' | 'precheck'> {
  const { precheck } = answers;
  // Another runner's answers, taken from the cache during the run, were not sent by this one.
  const fromCache = answers.fromCache + (outcome.fromOthers ?? 0);
  const sent = answers.verdicts.size - answers.fromJournal - fromCache - (precheck?.decidedCount ?? 0);
  return {
    answered: { fromJournal: answers.fromJournal, fromCache, sent },
    precheck: precheck
      ? {
          saved: precheck.decidedCount,
          byReason: sortedCounts(precheck.byReason),
          skipped: precheck.unreachable ?? null,
        }
      : null,
  };
}

function fixesOf(tally: Tally): NonNullable<RunSummary['fixes']> {
  let rows = 0;
  for (const n of tally.fixes.values()) rows += n;
  return { rows, domains: sortedCounts(tally.fixes) };
}
