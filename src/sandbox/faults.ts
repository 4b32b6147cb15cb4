import { randomInt } from 'node:crypto';

/** Fault injection for the clean route, so clients can rehearse a flaky service reproducibly. */
export interface FaultOptions {
  /** Probability of a 500, 502 (HTML body, as from a gateway) or 503 (no Retry-After), one third each. */
  serverErrorRate?: number;
  /** Probability of closing the connection without an answer (TCP reset). */
  resetRate?: number;
  /** Probability of cutting the answer: full Content-Length, half the body, then the connection closes. */
  truncateRate?: number;
  /** Delay before every answer of the clean route: a fixed number of ms, or [min, max] drawn uniformly. */
  latencyMs?: number | [number, number];
  /** Seed of the generators; the same seed and the same requests give the same faults. Default: random. */
  seed?: number;
}

export type Fault = { kind: 'none' } | { kind: 'server-error'; status: 500 | 502 | 503 } | { kind: 'reset' } | { kind: 'truncate' };

/**
 * mulberry32: a small 32-bit generator, plenty for picking faults. Returns floats in [0, 1).
 */
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

/** Throws a TypeError naming the bad field; the sandbox refuses to start with nonsense settings. */
export function checkFaultOptions(opts: FaultOptions): void {
  const rates = [
    ['serverErrorRate', opts.serverErrorRate],
    ['resetRate', opts.resetRate],
    ['truncateRate', opts.truncateRate],
  ] as const;
  let total = 0;
  for (const [name, value] of rates) {
    if (value === undefined) continue;
    if (!(typeof value === 'number' && value >= 0 && value <= 1)) throw new TypeError(`faults.${name} must be between 0 and 1`);
    total += value;
  }
  if (total > 1 + 1e-9) throw new TypeError('the fault rates must add up to at most 1');
  const latency = opts.latencyMs;
  if (latency !== undefined) {
    const [min, max] = typeof latency === 'number' ? [latency, latency] : latency;
    if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && max >= min)) {
      throw new TypeError('faults.latencyMs must be a number of ms >= 0, or [min, max] with 0 <= min <= max');
    }
  }
  if (opts.seed !== undefined && !Number.isSafeInteger(opts.seed)) throw new TypeError('faults.seed must be an integer');
}

/**
 * Decides the fault of each admitted request and the latency of each answer, from two streams
 * of one seed, so the faults a run sees do not depend on how many answers were delayed.
 */
export class FaultInjector {
  readonly seed: number;
  private readonly pick: () => number;
  private readonly delay: () => number;
  private readonly serverError: number;
  private readonly reset: number;
  private readonly truncate: number;
  private readonly latency: [number, number];

  constructor(opts: FaultOptions = {}) {
    checkFaultOptions(opts);
    this.seed = (opts.seed ?? randomInt(0x1_0000_0000)) >>> 0;
    this.pick = mulberry32(this.seed);
    this.delay = mulberry32(this.seed ^ 0x9e3779b9);
    this.serverError = opts.serverErrorRate ?? 0;
    this.reset = opts.resetRate ?? 0;
    this.truncate = opts.truncateRate ?? 0;
    const l = opts.latencyMs ?? 0;
    this.latency = typeof l === 'number' ? [l, l] : [l[0], l[1]];
  }

  /** One call per admitted request; always draws twice, so every request moves the stream alike. */
  roll(): Fault {
    const u = this.pick();
    const which = SERVER_ERRORS[Math.floor(this.pick() * SERVER_ERRORS.length)] ?? 500;
    if (u < this.serverError) return { kind: 'server-error', status: which };
    if (u < this.serverError + this.reset) return { kind: 'reset' };
    if (u < this.serverError + this.reset + this.truncate) return { kind: 'truncate' };
    return { kind: 'none' };
  }

  /** Milliseconds to hold the next answer back; 0 without latency. */
  latencyMs(): number {
    const [min, max] = this.latency;
    if (max === 0) return 0;
    if (min === max) return min;
    return min + this.delay() * (max - min);
  }
}
