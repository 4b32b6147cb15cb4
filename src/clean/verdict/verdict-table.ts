import { Paged } from '../scan/spill/paged.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import { addressKind, type Verdict } from './verdict.js';

/**
 * The verdict of each unique address by its ordinal: two bytes an address (four past 65,535 distinct verdicts) and
 * one object per distinct verdict (the engine's are shared, see local.ts), where a map from address to verdict
 * costs an entry and a string each.
 */
export class VerdictTable {
  private ids = new Paged('u16');
  /** One past the highest ordinal set. */
  private end = 0;
  /** Index 0 stands for "no verdict". */
  private readonly verdicts: Verdict[] = [];
  private readonly idOf = new Map<Verdict, number>();
  private count = 0;
  /** Each answer given its kind, by kind (see setKey). */
  private readonly kinds = new WeakMap<Verdict, Verdict[]>();

  constructor(private readonly keys: UniqueKeys) {}

  /** How many addresses have a verdict. */
  get size(): number {
    return this.count;
  }

  set(ordinal: number, verdict: Verdict): void {
    let id = this.idOf.get(verdict);
    if (id === undefined) {
      id = this.verdicts.push(verdict);
      this.idOf.set(verdict, id);
      if (id === 0x10000 && this.ids.kind === 'u16') this.widen();
    }
    if (this.ids.get(ordinal) === 0) this.count++;
    this.ids.set(ordinal, id);
    this.end = Math.max(this.end, ordinal + 1);
  }

  /**
   * By address (its number, when known already), while the list's index is kept: the service's answers (journal,
   * cache, those sent); others are ignored. An answer that does not say the address's kind (free, role: the service's)
   * is given it here, once an address, as the row's key would give it when written: rows then share a verdict per
   * answer and kind, and the write pass makes each one's cells once instead of once a row.
   */
  setKey(key: string, verdict: Verdict, ordinal = this.keys.ordinal(key)): void {
    if (ordinal >= 0) this.set(ordinal, verdict.free === undefined ? this.withKind(verdict, key) : verdict);
  }

  private withKind(verdict: Verdict, key: string): Verdict {
    const { free, role } = addressKind(verdict, key);
    if (free === null || role === null) return verdict;
    let kinds = this.kinds.get(verdict);
    if (!kinds) this.kinds.set(verdict, (kinds = []));
    const kind = (free ? 2 : 0) + (role ? 1 : 0);
    return (kinds[kind] ??= { ...verdict, free, role });
  }

  private widen(): void {
    const wide = new Paged('u32');
    for (let ordinal = 0; ordinal < this.end; ordinal++) wide.set(ordinal, this.ids.get(ordinal));
    this.ids = wide;
  }

  /** Each distinct verdict held, once. */
  distinct(): readonly Verdict[] {
    return this.verdicts;
  }

  get(ordinal: number): Verdict | undefined {
    const id = this.ids.get(ordinal);
    return id === 0 ? undefined : this.verdicts[id - 1];
  }
}
