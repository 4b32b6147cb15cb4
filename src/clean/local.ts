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
    free: v.freeProvider,
    role: v.role,
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
  const verdicts = new SharedVerdicts(opts.now);
  const next = keys[Symbol.iterator]();
  // A few workers pull addresses in turn: once a domain's answer is known an address takes microseconds, so a
  // promise or closure per address (a queue library's) would cost more than checking it.
  const worker = async () => {
    for (let item = next.next(); !item.done && !opts.stop.aborted; item = next.next()) {
      results.set(item.value, verdicts.of(await engine.verify(item.value)));
      if ((results.size & 0xff) === 0) opts.onChecked?.(results.size);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  opts.onChecked?.(results.size);
  return { results, interrupted: opts.stop.aborted };
}

/**
 * Most addresses share one of a few verdicts: one object per distinct verdict (and one timestamp per second), so a
 * million rows cost a map entry each rather than an object and a string each.
 */
class SharedVerdicts {
  private second = -1;
  private stamp = '';
  /** This second's verdicts, by reason. */
  private byReason = new Map<string, Verdict[]>();

  constructor(private readonly now: () => number) {}

  of(v: EngineVerdict): Verdict {
    const now = this.now();
    if (Math.floor(now / 1000) !== this.second) {
      this.second = Math.floor(now / 1000);
      this.stamp = new Date(now).toISOString();
      this.byReason = new Map();
    }
    let same = this.byReason.get(v.reason);
    if (!same) this.byReason.set(v.reason, (same = []));
    for (const made of same) {
      if (
        made.status === v.status &&
        made.valid === v.valid &&
        made.disposable === v.isDisposable &&
        made.validDomain === v.isValidDomain &&
        made.suggestion === v.suggestion &&
        made.free === v.freeProvider &&
        made.role === v.role
      )
        return made;
    }
    const made = engineVerdict('', v, this.stamp);
    same.push(made);
    return made;
  }
}
