import type { Engine, EngineVerdict } from '../verify/engine.js';
import type { Verdict } from './verdict.js';

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
  const iterator = keys[Symbol.iterator]();
  const worker = async () => {
    for (let next = iterator.next(); !next.done && !opts.stop.aborted; next = iterator.next()) {
      const verdict = await engine.verify(next.value);
      results.set(next.value, engineVerdict(next.value, verdict, new Date(opts.now()).toISOString()));
      if ((results.size & 0xff) === 0) opts.onChecked?.(results.size);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  opts.onChecked?.(results.size);
  return { results, interrupted: opts.stop.aborted };
}
