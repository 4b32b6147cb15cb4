import { byCodeUnits } from '../../quantities.js';
import { addressKind, type Verdict } from '../verdict/verdict.js';
import { type DomainMix, DomainMixes } from './domain-mixes.js';

export type { DomainMix };

const EXAMPLES = 5;

/** Verdicts whose rows are counted by object before being settled: held longer, they live into V8's old space. */
const SHARED_VERDICTS = 256;

/** A verdict's rows, in an object of its own so a row costs one map lookup, and its status's number. */
interface Count {
  n: number;
  status: number;
}

/** The rows' counts by status, reason, the service's word and provider, and of disposable and role addresses. */
export interface Counts {
  rows: number;
  disposable: number;
  role: number;
  byStatus: Map<string, number>;
  byReason: Map<string, number>;
  byServiceStatus: Map<string, number>;
  /** Rows by the mail provider behind their domain, where it is known. */
  byProvider: Map<string, number>;
}

/** The rows' counts as they are written (by status, reason, domain, kind, suggestion, provider), for the summaries and report. */
export class Tally {
  private readonly counted: Counts = {
    rows: 0,
    disposable: 0,
    role: 0,
    byStatus: new Map(),
    byReason: new Map(),
    byServiceStatus: new Map(),
    byProvider: new Map(),
  };
  private readonly byVerdict = new Map<Verdict, Count>();
  readonly suggestions = new Map<string, number>();
  /** --fix-typos: rows checked as their fix, by `typo → fix` domain. */
  readonly fixes = new Map<string, number>();
  readonly examples = new Map<string, string[]>();
  private readonly byDomain: DomainMixes | undefined;
  private readonly statusNames: string[] = [];
  private readonly statusNumbers = new Map<string, number>();

  constructor({ domains = true } = {}) {
    this.byDomain = domains ? new DomainMixes() : undefined;
  }

  /** Every row added so far, the verdicts held back counted now. */
  counts(): Readonly<Counts> {
    for (const [verdict, rows] of this.byVerdict) this.countVerdict(verdict, rows.n);
    this.byVerdict.clear();
    return this.counted;
  }

  add(verdict: Verdict, cell?: string, key: string = verdict.key): void {
    let rows = this.byVerdict.get(verdict);
    if (rows !== undefined) rows.n++;
    else {
      if (this.byVerdict.size === SHARED_VERDICTS) this.counts();
      this.byVerdict.set(verdict, (rows = { n: 1, status: this.statusNumber(verdict.status) }));
    }
    if (verdict.status !== 'valid' && cell !== undefined) this.keepExample(verdict.status, cell.trim());
    // The engine's word on a role address is its verdict's (counted with it); without one, the key is asked.
    if (verdict.free === undefined && verdict.reason !== 'role' && key !== '' && addressKind(verdict, key).role)
      this.counted.role++;
    if (!this.byDomain && !verdict.suggestion) return;
    const at = key.lastIndexOf('@');
    if (at < 0) return;
    this.byDomain?.add(key, at, rows.status);
    if (verdict.suggestion)
      bump(
        this.suggestions,
        `${key.slice(at + 1)} → ${verdict.suggestion.slice(verdict.suggestion.lastIndexOf('@') + 1)}`,
      );
  }

  /** A row whose address `typed` was checked as `fixed`. */
  addFix(typed: string, fixed: string): void {
    const typo = typed.slice(typed.lastIndexOf('@') + 1).toLowerCase();
    bump(this.fixes, `${typo} → ${fixed.slice(fixed.lastIndexOf('@') + 1)}`);
  }

  private statusNumber(status: string): number {
    let number = this.statusNumbers.get(status);
    if (number === undefined) this.statusNumbers.set(status, (number = this.statusNames.push(status) - 1));
    return number;
  }

  private countVerdict(verdict: Verdict, rows: number): void {
    const counted = this.counted;
    counted.rows += rows;
    bump(counted.byStatus, verdict.status, rows);
    if (verdict.reason) bump(counted.byReason, verdict.reason, rows);
    if (verdict.serviceStatus) bump(counted.byServiceStatus, verdict.serviceStatus, rows);
    if (verdict.provider) bump(counted.byProvider, verdict.provider, rows);
    if (verdict.disposable === true) counted.disposable += rows;
    if (verdict.reason === 'role' || (verdict.free !== undefined && verdict.role === true)) counted.role += rows;
  }

  private keepExample(status: string, cell: string): void {
    let list = this.examples.get(status);
    if (!list) this.examples.set(status, (list = []));
    if (list.length < EXAMPLES && cell !== '' && !list.includes(cell)) list.push(cell);
  }

  topDomains(n: number): DomainMix[] {
    return this.byDomain?.top(n, this.statusNames) ?? [];
  }
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

export function sortedCounts(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0])));
}
