// How many domains are looked up at once and how long a query is waited for, learned from the resolver's answers
// unless fixed (--dns-concurrency, --dns-timeout): a fast resolver is asked as fast as it answers, a dead domain is
// given up on soon after the live ones have answered, and a resolver that refuses or drops is asked less.
import pLimit, { type LimitFunction } from 'p-limit';

/** In flight at first, then doubled while answers come back (slow start), at most MAX_IN_FLIGHT. */
const START_IN_FLIGHT = 64;
export const MAX_IN_FLIGHT = 256;
const MIN_IN_FLIGHT = 4;
/** A query is waited for LATENCY_FACTOR times the slowest twentieth of recent answers, within these bounds. */
const TIMEOUT_FLOOR_MS = 750;
const TIMEOUT_CAP_MS = 3_000;
const LATENCY_FACTOR = 4;
const SAMPLES = 256;
/** More than this share of a window's queries unanswered, refused or failed: the resolver is overloaded. */
const OVERLOAD_SHARE = 0.2;

export const TIMED_OUT = 'ETIMEOUT';

export class DnsPace {
  readonly limit: LimitFunction;
  private readonly adaptive: boolean;
  private slowStart = true;
  private growth = 0;
  private window = { answers: 0, misses: 0 };
  private readonly samples = new Float64Array(SAMPLES);
  private sampled = 0;
  private learnedMs: number | undefined;

  constructor(
    concurrency: number | undefined,
    private readonly fixedTimeoutMs: number | undefined,
  ) {
    this.adaptive = concurrency === undefined;
    this.limit = pLimit(concurrency ?? START_IN_FLIGHT);
  }

  /** How long each try of a query is waited for. */
  timeoutMs(): number {
    if (this.fixedTimeoutMs !== undefined) return this.fixedTimeoutMs;
    if (this.learnedMs === undefined) {
      const n = Math.min(this.sampled, SAMPLES);
      // Before enough answers, the floor: checked again when it passes (race), so it never cuts a query short.
      if (n < 16) return TIMEOUT_FLOOR_MS;
      const slow = [...this.samples.subarray(0, n)].sort((a, b) => a - b)[Math.floor(n * 0.95)]!;
      this.learnedMs = Math.min(TIMEOUT_CAP_MS, Math.max(TIMEOUT_FLOOR_MS, Math.ceil(slow * LATENCY_FACTOR)));
    }
    return this.learnedMs;
  }

  /**
   * One try: `query`'s answer, or ETIMEOUT once the try has waited its time. The time is read again when it passes,
   * so queries asked before the first answers came in are held to what those answers taught. c-ares gives up at a
   * time of its own, learned from the server's answers: until the try's time has passed, it is asked again.
   */
  race<T>(query: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const left = () => this.timeoutMs() - (performance.now() - started);
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      let done = false;
      const end = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        settle();
      };
      const check = () => {
        const ms = left();
        if (ms > 1) timer = setTimeout(check, ms);
        else end(() => reject(Object.assign(new Error('DNS query timed out'), { code: TIMED_OUT })));
      };
      const ask = (): void => {
        void query().then(
          (value) => end(() => resolve(value)),
          (err: unknown) => {
            if ((err as { code?: unknown })?.code === TIMED_OUT && !done && left() > 1) ask();
            else end(() => reject(err));
          },
        );
      };
      timer = setTimeout(check, this.fixedTimeoutMs ?? TIMEOUT_FLOOR_MS);
      ask();
    });
  }

  /** The resolver answered (whatever it said) in `ms`: more may be asked at once. */
  answered(ms: number): void {
    this.samples[this.sampled++ % SAMPLES] = ms;
    if (this.sampled % 64 === 0) this.learnedMs = undefined;
    if (!this.adaptive) return;
    this.window.answers++;
    if (this.slowStart) this.setLimit(this.limit.concurrency + 1);
    else if ((this.growth += 1 / this.limit.concurrency) >= 1) {
      this.growth = 0;
      this.setLimit(this.limit.concurrency + 1);
    }
    this.endWindow();
  }

  /** A query timed out, or the resolver refused or failed it: counted, and too many of them halve the limit. */
  missed(): void {
    if (!this.adaptive) return;
    this.window.misses++;
    this.endWindow();
  }

  private endWindow(): void {
    const { answers, misses } = this.window;
    if (answers + misses < Math.max(16, this.limit.concurrency / 2)) return;
    if (misses > (answers + misses) * OVERLOAD_SHARE) {
      this.slowStart = false;
      this.setLimit(Math.floor(this.limit.concurrency / 2));
    }
    this.window = { answers: 0, misses: 0 };
  }

  private setLimit(n: number): void {
    this.limit.concurrency = Math.max(MIN_IN_FLIGHT, Math.min(MAX_IN_FLIGHT, n));
  }
}
