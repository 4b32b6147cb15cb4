// The keys a run sends, cut into batches as places free up: from an iterable read only as batches are cut (a list of
// millions is never copied), then, once that runs dry, from `more` (keys claimed as the run goes), whose answer
// arrives later while the requests in flight go on. A batch is cut short only at the very end: every request counts
// against the rate limit, whatever it carries.

/** The next keys to send, or undefined when there are no more. */
export type MoreKeys = () => Promise<Iterable<string> | undefined>;

export class KeySource {
  private iterator?: Iterator<string>;
  /** Keys read but too few for a batch, kept for the first batch of what `more` brings. */
  private carry: string[] = [];
  private fetching = false;
  /** `more` has none left, or the source was closed. */
  private done: boolean;

  constructor(
    keys: Iterable<string>,
    private readonly more: MoreKeys | undefined,
    /** Told of each fetch from `more`, to take the batches it brings once it settles (or its failure). */
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

  /** Reads no more (a stop); returns whether any key was left unsent. */
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
