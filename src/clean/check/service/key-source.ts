// The keys a run sends, cut into batches: from an iterable, then from `more` (keys claimed as the run goes). A batch
// is cut short only at the very end: every request counts against the rate limit, whatever it carries.

export type MoreKeys = () => Promise<Iterable<string> | undefined>;

export class KeySource {
  private iterator?: Iterator<string>;
  /** Keys read but too few for a batch, kept for the first batch of what `more` brings. */
  private carry: string[] = [];
  private fetching = false;
  private done: boolean;

  constructor(
    keys: Iterable<string>,
    private readonly more: MoreKeys | undefined,
    /** Told of each fetch from `more`, to cut the batches it brings once it settles. */
    private readonly onFetch: (fetched: Promise<void>) => void,
  ) {
    this.iterator = keys[Symbol.iterator]();
    this.done = more === undefined;
  }

  /** The next batch of at most `size` keys; 'later' while more are being fetched; undefined once there are none. */
  take(size: number): string[] | 'later' | undefined {
    const keys = this.carry;
    this.carry = [];
    for (let next = this.iterator?.next(); next && !next.done; next = this.iterator?.next())
      if (keys.push(next.value) === size) return keys;
    this.iterator = undefined;
    if (this.done) return keys.length > 0 ? keys : undefined;
    this.carry = keys;
    if (!this.fetching) this.fetch();
    return 'later';
  }

  /** Returns whether any key was left unsent. */
  close(): boolean {
    const left = this.carry.length > 0 || this.iterator?.next().done === false || !this.done;
    this.iterator = undefined;
    this.carry = [];
    this.done = true;
    return left;
  }

  private fetch(): void {
    this.fetching = true;
    const fetched = this.more!()
      .then((keys) => {
        if (this.done) return;
        if (keys === undefined) this.done = true;
        else this.iterator = keys[Symbol.iterator]();
      })
      .finally(() => {
        this.fetching = false;
      });
    this.onFetch(fetched);
  }
}
