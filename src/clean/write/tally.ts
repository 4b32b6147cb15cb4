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
 * Counts of the rows as they are written: by status, by reason, by domain, disposable and role addresses, and
 * typo suggestions. One pass, a few map updates per row; what the summary, the job summary and the report show.
 */
export class Tally {
  rows = 0;
  disposable = 0;
  role = 0;
  readonly byStatus = new Map<string, number>();
  readonly byReason = new Map<string, number>();
  /** Rows per status word the cleaning service itself sent. */
  readonly byServiceStatus = new Map<string, number>();
  /** "gmial.com → gmail.com" -> rows. */
  readonly suggestions = new Map<string, number>();
  /** The first few addresses (as written in the input) of each status but `valid`, for the report. */
  readonly examples = new Map<string, string[]>();
  private readonly byDomain = new Map<string, Map<string, number>>();

  /** One row: its verdict, the cell as written, and its address's key when it has one (shared verdicts carry none). */
  add(verdict: Verdict, cell?: string, key: string = verdict.key): void {
    this.rows++;
    bump(this.byStatus, verdict.status);
    if (verdict.status !== 'valid' && cell !== undefined) this.keepExample(verdict.status, cell.trim());
    if (verdict.reason) bump(this.byReason, verdict.reason);
    if (verdict.serviceStatus) bump(this.byServiceStatus, verdict.serviceStatus);
    if (verdict.disposable === true) this.disposable++;
    // As the email_role column says it: the engine's own word, else the engine's list asked about the address.
    if (verdict.reason === 'role' || (key !== '' && addressKind(verdict, key).role === true)) this.role++;
    const at = key.lastIndexOf('@');
    if (at < 0) return;
    const domain = key.slice(at + 1);
    let mix = this.byDomain.get(domain);
    if (!mix) this.byDomain.set(domain, (mix = new Map()));
    bump(mix, verdict.status);
    if (verdict.suggestion)
      bump(this.suggestions, `${domain} → ${verdict.suggestion.slice(verdict.suggestion.lastIndexOf('@') + 1)}`);
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
      for (const count of mix.values()) rows += count;
      all.push({ domain, rows, statuses: Object.fromEntries(mix) });
    }
    return all.sort((a, b) => b.rows - a.rows || byCodeUnits(a.domain, b.domain)).slice(0, n);
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A map as an object with its entries sorted by count, largest first (stable field order for JSON). */
export function sortedCounts(map: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0])));
}
