/** How long to wait before attempt `n + 1` after `n` failures in a row. */
export interface BackoffPolicy {
  firstMs: number;
  capMs: number;
}

/** Exponential backoff with "equal jitter", so clients that failed together do not retry together. */
export function backoffMs(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.firstMs * 2 ** Math.max(0, failures - 1), policy.capMs);
  return ceiling / 2 + random() * (ceiling / 2);
}
