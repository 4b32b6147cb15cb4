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

/** The rows' counts as they are written (by status, reason, domain, kind, suggestion, provider), for the summaries and report. */
export class Tally {
  private counted = { rows: 0, disposable: 0, role: 0 };
  private readonly statuses = new Map<string, number>();
  private readonly reasons = new Map<string, number>();
  private readonly serviceStatuses = new Map<string, number>();
  private readonly providers = new Map<string, number>();
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

  get rows(): number {
    return this.settled().rows;
  }
  get disposable(): number {
    return this.settled().disposable;
  }
  get role(): number {
    return this.settled().role;
  }
  get byStatus(): ReadonlyMap<string, number> {
    this.settled();
    return this.statuses;
  }
  get byReason(): ReadonlyMap<string, number> {
    this.settled();
    return this.reasons;
  }
  get byServiceStatus(): ReadonlyMap<string, number> {
    this.settled();
    return this.serviceStatuses;
  }
  /** Rows by the mail provider behind their domain, where it is known. */
  get byProvider(): ReadonlyMap<string, number> {
    this.settled();
    return this.providers;
  }

  add(verdict: Verdict, cell?: string, key: string = verdict.key): void {
    let rows = this.byVerdict.get(verdict);
    if (rows !== undefined) rows.n++;
    else {
      if (this.byVerdict.size === SHARED_VERDICTS) this.settled();
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
    this.counted.rows += rows;
    bump(this.statuses, verdict.status, rows);
    if (verdict.reason) bump(this.reasons, verdict.reason, rows);
    if (verdict.serviceStatus) bump(this.serviceStatuses, verdict.serviceStatus, rows);
    if (verdict.provider) bump(this.providers, verdict.provider, rows);
    if (verdict.disposable === true) this.counted.disposable += rows;
    if (verdict.reason === 'role' || (verdict.free !== undefined && verdict.role === true)) this.counted.role += rows;
  }

  private settled(): { rows: number; disposable: number; role: number } {
    for (const [verdict, rows] of this.byVerdict) this.countVerdict(verdict, rows.n);
    this.byVerdict.clear();
    return this.counted;
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
