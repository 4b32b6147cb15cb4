import { randomInt } from 'node:crypto';

/** Fault injection for the clean route, so clients can rehearse a flaky service reproducibly. */
export interface FaultOptions {
  /** Probability of a 500, 502 (HTML body, as from a gateway) or 503 (no Retry-After), one third each. */
  serverErrorRate?: number;
  /** Probability of closing the connection without an answer (TCP reset). */
  resetRate?: number;
  /** Probability of cutting the answer: full Content-Length, half the body, then the connection closes. */
  truncateRate?: number;
  /** Probability that a valid request is refused with a 422 naming one of its addresses (`email.<i>`). */
  rejectRate?: number;
  /** Probability that a valid request is refused with a 422 naming none of its addresses. */
  rejectUnnamedRate?: number;
  /** Probability that a charged answer leaves out the record of one of its addresses. */
  dropRate?: number;
  /** Delay before every answer of the clean route: a fixed number of ms, or [min, max] drawn uniformly. */
  latencyMs?: number | [number, number];
  /** Seed of the generators; the same seed and the same requests give the same faults. Default: random. */
  seed?: number;
}

/** `at`, in [0, 1): where in the request's addresses the fault strikes (the index is `floor(at * count)`). */
export type Fault =
  | { kind: 'none' }
  | { kind: 'server-error'; status: 500 | 502 | 503 }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'reject'; at: number }
  | { kind: 'reject-unnamed' }
  | { kind: 'drop'; at: number };

/** mulberry32: a small 32-bit generator, plenty for picking faults. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

const SERVER_ERRORS = [500, 502, 503] as const;
type RateName = Exclude<keyof FaultOptions, 'latencyMs' | 'seed'>;

/** Each fault by the option that sets its rate, in the order a roll tries them. */
const FAULTS: readonly (readonly [RateName, (at: number) => Fault])[] = [
  [
    'serverErrorRate',
    (at) => ({ kind: 'server-error', status: SERVER_ERRORS[Math.floor(at * SERVER_ERRORS.length)] ?? 500 }),
  ],
  ['resetRate', () => ({ kind: 'reset' })],
  ['truncateRate', () => ({ kind: 'truncate' })],
  ['rejectRate', (at) => ({ kind: 'reject', at })],
  ['rejectUnnamedRate', () => ({ kind: 'reject-unnamed' })],
  ['dropRate', (at) => ({ kind: 'drop', at })],
];

/** Throws a TypeError naming the bad field; the sandbox refuses to start with nonsense settings. */
export function checkFaultOptions(opts: FaultOptions): void {
  let total = 0;
  for (const [name] of FAULTS) {
    const value = opts[name];
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value >= 0 && value <= 1))
      throw new TypeError(`faults.${name} must be between 0 and 1`);
    total += value;
  }
  if (total > 1 + 1e-9) throw new TypeError('the fault rates must add up to at most 1');
  const latency = opts.latencyMs;
  if (latency !== undefined) {
    const [min, max] = typeof latency === 'number' ? [latency, latency] : latency;
    if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && max >= min))
      throw new TypeError('faults.latencyMs must be a number of ms >= 0, or [min, max] with 0 <= min <= max');
  }
  if (opts.seed !== undefined && !Number.isSafeInteger(opts.seed))
    throw new TypeError('faults.seed must be an integer');
}

/** Each request's fault and each answer's latency, from two streams of one seed so delays do not shift faults. */
export class FaultInjector {
  readonly seed: number;
  private readonly pick: () => number;
  private readonly delay: () => number;
  /** Upper ends of each fault's slice of [0, 1), in the order of `FAULTS`. */
  private readonly thresholds: number[];
  private readonly latency: [number, number];

  constructor(opts: FaultOptions = {}) {
    checkFaultOptions(opts);
    this.seed = (opts.seed ?? randomInt(0x1_0000_0000)) >>> 0;
    this.pick = mulberry32(this.seed);
    this.delay = mulberry32(this.seed ^ 0x9e3779b9);
    let upTo = 0;
    this.thresholds = FAULTS.map(([name]) => (upTo += opts[name] ?? 0));
    const l = opts.latencyMs ?? 0;
    this.latency = typeof l === 'number' ? [l, l] : [l[0], l[1]];
  }

  /** One call per admitted request; always draws twice, so every request moves the stream alike. */
  roll(): Fault {
    const u = this.pick();
    const at = this.pick();
    const slice = this.thresholds.findIndex((upTo) => u < upTo);
    return FAULTS[slice]?.[1](at) ?? { kind: 'none' };
  }

  latencyMs(): number {
    const [min, max] = this.latency;
    if (max === 0) return 0;
    if (min === max) return min;
    return min + this.delay() * (max - min);
  }
}
