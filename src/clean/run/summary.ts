// The summary of one clean run: what `--summary-json` writes (docs/json.md; the field names are stable), and
// what the terminal summary, the GitHub job summary and the HTML report show.
import type { CheckOutcome, StopReason } from '../check/outcome.js';
import type { ScanResult } from '../scan/scan.js';
import { STATUSES } from '../verdict/verdict.js';
import { type DomainMix, sortedCounts, type Tally } from '../write/tally.js';

export interface OutputCount {
  /** The path as given, or `-` for stdout. */
  path: string;
  role: 'output' | 'rejects';
  rows: number;
}

export interface RunSummary {
  version: 1;
  input: string;
  /** Who decided the addresses: the cleaning service, or the built-in engine in-process. */
  checker: 'service' | 'local';
  /** The cleaning service's URL (credentials redacted); null for the engine. */
  service: string | null;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  rows: number;
  unique: number;
  duplicates: number;
  blank: number;
  malformed: number;
  /** Rows per status, the five known ones first. */
  statuses: Record<string, number>;
  /** Rows per reason, most first. */
  reasons: Record<string, number>;
  /** Rows per status word the cleaning service itself sent, most first (empty with the built-in engine). */
  serviceStatuses: Record<string, number>;
  disposable: number;
  role: number;
  /** Rows per typo suggestion ("gmial.com → gmail.com"), most first. */
  suggestions: Record<string, number>;
  topDomains: DomainMix[];
  /** Unique addresses answered by an earlier run's journal, by the cache, and sent now. */
  answered: { fromJournal: number; fromCache: number; sent: number };
  /**
   * With the service: what the precheck decided for free (`saved`: addresses not paid for), by reason; `skipped`
   * names why it did not run when DNS did not answer. Null without the service or with --no-precheck.
   */
  precheck: { saved: number; byReason: Record<string, number>; skipped: string | null } | null;
  spent: number;
  requests: number;
  retries: number;
  /** What the service last said was left of the monthly allowance, if it said. */
  allowanceLeft: number | null;
  unchecked: { rows: number; reason: StopReason | null; message: string | null };
  outputs: OutputCount[];
  /** Filled in last: the run's exit code. */
  exitCode: number;
  /** Rows with more or fewer fields than the header, kept as they are; the first of their lines. */
  ragged: { rows: number; lines: number[] };
  /** Rows whose address was taken from inside the cell (`Name <address>`, mailto:, ` ::: `). */
  extracted: number;
  /** Why sending stopped before the end (the allowance, a refused token, a signal...), or null when it did not. */
  stopped: { reason: StopReason; message: string } | null;
  /**
   * The --fail-when conditions that held (exit 5), each with what was found, e.g. "invalid>5% (invalid is 7.3% of
   * rows)".
   */
  failedWhen: string[];
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
  };
}
