import pLimit from 'p-limit';
import type { Engine, EngineVerdict } from '../verify/index.js';
import type { Verdict } from './verdict.js';

/** The engine's verdict as a row's verdict; `key` may be '' where the caller keeps it (the results map). */
export function engineVerdict(key: string, v: EngineVerdict, checkedAt: string): Verdict {
  return {
    key,
    status: v.status,
    valid: v.valid,
    disposable: v.isDisposable,
    validDomain: v.isValidDomain,
    reason: v.reason,
    checkedAt,
    suggestion: v.suggestion,
  };
}

/**
 * Checks every unique address with the in-process engine: no account, no allowance, no rate limit. The
 * engine bounds its own DNS and SMTP concurrency; this only bounds how many addresses wait on it.
 */
export async function checkLocally(
  keys: Iterable<string>,
  engine: Engine,
  opts: { concurrency: number; stop: AbortSignal; now: () => number; onChecked?: (checked: number) => void },
): Promise<{ results: Map<string, Verdict>; interrupted: boolean }> {
  const results = new Map<string, Verdict>();
  // Most addresses share one of a few verdicts: keep one object per distinct verdict (and one timestamp per
  // second), so a million rows cost a map entry each rather than an object and a string each.
  const shared = new Map<string, Verdict>();
  let second = -1;
  let stamp = '';
  const check = async (key: string) => {
    const verdict = await engine.verify(key);
    const now = opts.now();
    if (Math.floor(now / 1000) !== second) {
      second = Math.floor(now / 1000);
      stamp = new Date(now).toISOString();
    }
    const made = engineVerdict('', verdict, stamp);
    const id = `${made.status}|${made.valid}|${made.disposable}|${made.validDomain}|${made.reason}|${made.checkedAt}|${made.suggestion ?? ''}`;
    let one = shared.get(id);
    if (!one) {
      one = made;
      shared.set(id, one);
    }
    results.set(key, one);
    if ((results.size & 0xff) === 0) opts.onChecked?.(results.size);
  };
  // Addresses are handed to the pool as places free up, so a million of them never wait as a million closures.
  const limit = pLimit(opts.concurrency);
  let queued = 0;
  let placeFreed: (() => void) | undefined;
  const task = async (key: string) => {
    try {
      await check(key);
    } finally {
      queued--;
      placeFreed?.();
    }
  };
  const room = (atMost: number) => (queued <= atMost ? undefined : new Promise<void>((resolve) => (placeFreed = resolve)));
  for (const key of keys) {
    if (opts.stop.aborted) break;
    while (queued >= opts.concurrency) await room(opts.concurrency - 1);
    queued++;
    void limit(task, key);
  }
  while (queued > 0) await room(0);
  opts.onChecked?.(results.size);
  return { results, interrupted: opts.stop.aborted };
}
