import type { Engine, EngineVerdict } from '../../../verify/index.js';
import { eachKeyIn } from '../../scan/spill/key-records.js';
import type { UniqueKeys } from '../../scan/spill/unique-keys.js';
import type { Verdict } from '../../verdict/verdict.js';

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
    decidedBy: 'local',
  };
}

/**
 * Bounds only how many addresses wait on the engine (it bounds its own DNS and SMTP); nothing is kept. A key's
 * number is its place in `keys`; those `skip` names are passed over.
 */
export async function checkWithEngine(
  keys: Iterable<string>,
  engine: Engine,
  opts: {
    concurrency: number;
    stop: AbortSignal;
    now: () => number;
    onVerdict: (ordinal: number, verdict: Verdict, key: string) => void;
    onChecked?: (checked: number) => void;
    skip?: (ordinal: number) => boolean;
  },
): Promise<{ checked: number; interrupted: boolean }> {
  const verdicts = new SharedVerdicts(opts.now);
  const next = keys[Symbol.iterator]();
  let pulled = 0;
  let checked = 0;
  // A few workers pull addresses in turn: once a domain's answer is known an address takes microseconds, so a
  // promise or closure per address (a queue library's) would cost more than checking it. Nor a pair per address:
  // once a few outlive a wait, V8 makes them all in the old generation (pretenuring), where they pile up.
  const worker = async () => {
    for (let item = next.next(); !item.done && !opts.stop.aborted; item = next.next()) {
      const ordinal = pulled++;
      const key = item.value;
      if (opts.skip?.(ordinal)) continue;
      // Decided without a promise once its domain is known; the loop yields now and again for signals and DNS.
      const known = engine.verifyKnown(key, 'key');
      opts.onVerdict(ordinal, verdicts.of(known ?? (await engine.verify(key, 'key'))), key);
      if ((++checked & 0xff) === 0) {
        opts.onChecked?.(checked);
        if (known) await new Promise(setImmediate);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, worker));
  opts.onChecked?.(checked);
  return { checked, interrupted: opts.stop.aborted };
}

/** Decides the keys whose domain DNS has answered for (nearly all, after the scan's prefetch); returns how many. */
export async function checkKnownKeys(
  keys: UniqueKeys,
  engine: Engine,
  opts: {
    stop: AbortSignal;
    now: () => number;
    onVerdict: (ordinal: number, verdict: Verdict) => void;
    onChecked?: (checked: number) => void;
    answered?: (ordinal: number) => boolean;
  },
): Promise<number> {
  const verdicts = new SharedVerdicts(opts.now);
  const { answered, onVerdict } = opts;
  let [ordinal, decided] = [0, 0];
  const decide = (bytes: Buffer, start: number, end: number) => {
    const known = answered?.(ordinal) ? undefined : engine.knownKeyBytes(bytes, start, end);
    if (known) {
      onVerdict(ordinal, verdicts.of(known));
      decided++;
    }
    ordinal++;
  };
  for (const part of keys.keyParts()) {
    eachKeyIn(part, decide);
    opts.onChecked?.(decided);
    if (opts.stop.aborted) break;
    await new Promise(setImmediate);
  }
  return decided;
}

/**
 * Most addresses share one of a few verdicts: one object per distinct verdict (and one timestamp per second), so a
 * million rows cost a map entry each rather than an object and a string each.
 */
class SharedVerdicts {
  private second = -1;
  private stamp = '';
  private byReason = new Map<string, Verdict[]>();
  private lastGiven: EngineVerdict | undefined;
  private lastMade: Verdict | undefined;

  constructor(private readonly now: () => number) {}

  of(v: EngineVerdict): Verdict {
    const now = this.now();
    if (Math.floor(now / 1000) !== this.second) {
      this.second = Math.floor(now / 1000);
      this.stamp = new Date(now).toISOString();
      this.byReason = new Map();
      this.lastGiven = undefined;
    }
    if (v === this.lastGiven) return this.lastMade as Verdict;
    this.lastGiven = v;
    return (this.lastMade = this.alike(v));
  }

  private alike(v: EngineVerdict): Verdict {
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
