import { Paged } from '../scan/spill/paged.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { Verdict } from './verdict.js';

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

  /** By address, while the list's index is kept: the service's answers (journal, cache); others are ignored. */
  setKey(key: string, verdict: Verdict): void {
    const ordinal = this.keys.ordinal(key);
    if (ordinal >= 0) this.set(ordinal, verdict);
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
