import { byCodeUnits } from '../../quantities.js';
import { addressKind, type Verdict } from '../verdict/verdict.js';

const EXAMPLES = 5;

/** How the rows of one domain came out. */
export interface DomainMix {
  domain: string;
  rows: number;
  statuses: Record<string, number>;
}

/**
 * Verdicts counted by object before each one's rows are counted field by field: the engine shares a few dozen
 * among a million rows; a service's answers, one each, go straight to the counts once this many are kept.
 */
const SHARED_VERDICTS = 4096;

/** A count kept in an object of its own: a row then costs one map lookup, not a lookup and an update. */
interface Count {
  n: number;
}

/**
 * Counts of the rows as they are written: by status, by reason, by domain, disposable and role addresses, and
 * typo suggestions. One pass: per row, a count for its verdict object and its domain's mix; what a verdict says
 * alone (status, reason, disposable, the engine's role) is counted once per verdict when the counts are read.
 * What the summary, the job summary and the report show.
 */
export class Tally {
  private counted = { rows: 0, disposable: 0, role: 0 };
  private readonly statuses = new Map<string, number>();
  private readonly reasons = new Map<string, number>();
  private readonly serviceStatuses = new Map<string, number>();
  /** Rows per verdict object, not yet in the counts above. */
  private readonly byVerdict = new Map<Verdict, Count>();
  /** "gmial.com → gmail.com" -> rows. */
  readonly suggestions = new Map<string, number>();
  /** The first few addresses (as written in the input) of each status but `valid`, for the report. */
  readonly examples = new Map<string, string[]>();
  private readonly byDomain = new Map<string, Map<string, Count>>();

  get rows(): number {
    return this.settled().rows;
  }
  get disposable(): number {
    return this.settled().disposable;
  }
  /** Role addresses, as the email_role column says it (see add). */
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
  /** Rows per status word the cleaning service itself sent. */
  get byServiceStatus(): ReadonlyMap<string, number> {
    this.settled();
    return this.serviceStatuses;
  }

  /** One row: its verdict, the cell as written, and its address's key when it has one (shared verdicts carry none). */
  add(verdict: Verdict, cell?: string, key: string = verdict.key): void {
    const rows = this.byVerdict.get(verdict);
    if (rows !== undefined) rows.n++;
    else if (this.byVerdict.size < SHARED_VERDICTS) this.byVerdict.set(verdict, { n: 1 });
    else this.countVerdict(verdict, 1);
    if (verdict.status !== 'valid' && cell !== undefined) this.keepExample(verdict.status, cell.trim());
    // The engine's word on a role address is its verdict's (counted with it); without one, the key is asked.
    if (verdict.free === undefined && verdict.reason !== 'role' && key !== '' && addressKind(verdict, key).role)
      this.counted.role++;
    const at = key.lastIndexOf('@');
    if (at < 0) return;
    const domain = key.slice(at + 1);
    let mix = this.byDomain.get(domain);
    if (!mix) this.byDomain.set(domain, (mix = new Map()));
    const status = mix.get(verdict.status);
    if (status) status.n++;
    else mix.set(verdict.status, { n: 1 });
    if (verdict.suggestion)
      bump(this.suggestions, `${domain} → ${verdict.suggestion.slice(verdict.suggestion.lastIndexOf('@') + 1)}`);
  }

  /** What `rows` rows of one verdict add to the counts that depend on the verdict alone. */
  private countVerdict(verdict: Verdict, rows: number): void {
    this.counted.rows += rows;
    bump(this.statuses, verdict.status, rows);
    if (verdict.reason) bump(this.reasons, verdict.reason, rows);
    if (verdict.serviceStatus) bump(this.serviceStatuses, verdict.serviceStatus, rows);
    if (verdict.disposable === true) this.counted.disposable += rows;
    if (verdict.reason === 'role' || (verdict.free !== undefined && verdict.role === true)) this.counted.role += rows;
  }

  /** The counts with every verdict's rows in them. */
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

  /** The `n` domains with the most rows, each with its mix of statuses (ties by name). */
  topDomains(n: number): DomainMix[] {
    const all: DomainMix[] = [];
    for (const [domain, mix] of this.byDomain) {
      let rows = 0;
      const statuses: Record<string, number> = {};
      for (const [status, count] of mix) {
        rows += count.n;
        statuses[status] = count.n;
      }
      all.push({ domain, rows, statuses });
    }
    return all.sort((a, b) => b.rows - a.rows || byCodeUnits(a.domain, b.domain)).slice(0, n);
  }
}

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** A map as an object with its entries sorted by count, largest first (stable field order for JSON). */
export function sortedCounts(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0])));
}
