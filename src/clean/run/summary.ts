// The summary of a run: what `--summary-json` writes (docs/json.md documents each field; their names are stable),
// and what the terminal summary, the GitHub job summary and the HTML report show.
import type { CheckOutcome, StopReason } from '../check/outcome.js';
import type { ScanResult } from '../scan/scan.js';
import { STATUSES } from '../verdict/verdict.js';
import { type DomainMix, sortedCounts, type Tally } from '../write/tally.js';

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

export interface SummaryInput {
  input: string;
  checker: 'service' | 'local';
  service?: string;
  startedAt: number;
  scan: ScanResult;
  tally: Tally;
  outputs: OutputCount[];
  answered: { fromJournal: number; fromCache: number; sent: number };
  outcome: CheckOutcome;
  allowanceLeft?: number;
  precheck?: { decidedCount: number; byReason: ReadonlyMap<string, number>; unreachable?: string };
  fixTypos?: boolean;
  now: number;
}

const TOP_DOMAINS = 20;

export function runSummary(s: SummaryInput): RunSummary {
  const { now } = s;
  const { scan, tally, outcome } = s;
  const unchecked = tally.byStatus.get('unchecked') ?? 0;
  const statuses = Object.fromEntries(
    STATUSES.filter((status) => tally.byStatus.has(status)).map(
      (status) => [status, tally.byStatus.get(status)!] as const,
    ),
  );
  return {
    version: 1,
    input: s.input,
    checker: s.checker,
    service: s.service ?? null,
    startedAt: new Date(s.startedAt).toISOString(),
    finishedAt: new Date(now).toISOString(),
    durationMs: now - s.startedAt,
    rows: scan.rows,
    unique: scan.unique.size,
    duplicates: scan.duplicates,
    blank: scan.blank,
    malformed: scan.invalid,
    statuses,
    reasons: sortedCounts(tally.byReason),
    serviceStatuses: sortedCounts(tally.byServiceStatus),
    disposable: tally.disposable,
    role: tally.role,
    suggestions: sortedCounts(tally.suggestions),
    providers: sortedCounts(tally.byProvider),
    topDomains: tally.topDomains(TOP_DOMAINS),
    answered: s.answered,
    precheck: s.precheck
      ? {
          saved: s.precheck.decidedCount,
          byReason: sortedCounts(s.precheck.byReason),
          skipped: s.precheck.unreachable ?? null,
        }
      : null,
    spent: outcome.spent,
    requests: outcome.requests,
    retries: outcome.retries,
    allowanceLeft: outcome.allowance?.left ?? s.allowanceLeft ?? null,
    unchecked: {
      rows: unchecked,
      reason: unchecked > 0 ? (outcome.stopped?.reason ?? null) : null,
      message: unchecked > 0 ? (outcome.stopped?.message ?? null) : null,
    },
    outputs: s.outputs,
    exitCode: 0,
    ragged: { rows: scan.ragged.rows, lines: [...scan.ragged.lines] },
    extracted: scan.extracted,
    stopped: outcome.stopped ? { reason: outcome.stopped.reason, message: outcome.stopped.message } : null,
    failedWhen: [],
    ...(s.fixTypos ? { fixes: fixesOf(tally) } : {}),
  };
}

function fixesOf(tally: Tally): NonNullable<RunSummary['fixes']> {
  let rows = 0;
  for (const n of tally.fixes.values()) rows += n;
  return { rows, domains: sortedCounts(tally.fixes) };
}
