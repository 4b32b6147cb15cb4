// --fail-when: conditions on the share (or number) of rows with a status or a reason, for CI jobs to gate on.
import { REASON_MEANINGS, STATUSES } from '../verdict/verdict.js';
import type { RunSummary } from './summary.js';

export interface Threshold {
  name: string;
  op: '>' | '>=' | '<' | '<=';
  value: number;
  percent: boolean;
  text: string;
}

const CONDITION = /^\s*([a-z_]+)\s*(>=|<=|>|<)\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/;

/** `invalid>5%,unchecked>0`; an unknown name or a malformed condition is described in `error`. */
export function parseThresholds(text: string): { thresholds: Threshold[] } | { error: string } {
  const thresholds: Threshold[] = [];
  for (const part of text.split(',')) {
    const m = CONDITION.exec(part);
    if (!m) return { error: `"${part.trim()}" is not a condition like invalid>5% or unchecked>0` };
    const name = m[1]!;
    if (!STATUSES.includes(name) && !Object.hasOwn(REASON_MEANINGS, name)) {
      return { error: `"${name}" is neither a status (${STATUSES.join(', ')}) nor a reason (see clean --help)` };
    }
    const percent = m[4] === '%';
    if (percent && Number(m[3]) > 100) return { error: `"${part.trim()}": a share of rows is at most 100%` };
    thresholds.push({ name, op: m[2] as Threshold['op'], value: Number(m[3]), percent, text: part.trim() });
  }
  return { thresholds };
}

export interface Crossing {
  threshold: Threshold;
  rows: number;
  share: number;
}

/** Rows whose email_role or email_disposable column is true: what `role` and `disposable` mean to a gate. */
const KIND_COUNTS: Record<string, (s: RunSummary) => number> = {
  role: (s) => s.role,
  disposable: (s) => s.disposable,
};

const HOLDS: Record<Threshold['op'], (actual: number, value: number) => boolean> = {
  '>': (actual, value) => actual > value,
  '>=': (actual, value) => actual >= value,
  '<': (actual, value) => actual < value,
  '<=': (actual, value) => actual <= value,
};

export function crossedThresholds(summary: RunSummary, thresholds: readonly Threshold[]): Crossing[] {
  return thresholds.flatMap((threshold) => {
    const rows =
      KIND_COUNTS[threshold.name]?.(summary) ??
      summary.statuses[threshold.name] ??
      summary.reasons[threshold.name] ??
      0;
    const share = summary.rows > 0 ? (100 * rows) / summary.rows : 0;
    const actual = threshold.percent ? share : rows;
    return HOLDS[threshold.op](actual, threshold.value) ? [{ threshold, rows, share }] : [];
  });
}
