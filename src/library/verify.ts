// A few addresses checked now: by the cleaning service when the client has one (answers within maxAge come from the
// account's cache, new ones are kept there, the precheck decides for free first), or by the built-in engine.
import type { EngineSettings } from '../clean/check/engine/engine-settings.js';
import { prefilter } from '../clean/scan/prefilter.js';
import { addressKind, prefilterVerdict, type Verdict } from '../clean/verdict/verdict.js';
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import { maxAgeOf } from './clean-options.js';
import type { VerifyOptions, VerifyResult } from './types.js';

/** More is a list: `clean` it. */
export const MAX_ADDRESSES = 500;

/** Every address's verdict, in the order given; one not checked (stopped, allowance spent) is `unchecked`. */
export async function verifyWith(
  account: Account,
  addresses: readonly string[],
  o: VerifyOptions,
  engine: EngineSettings,
): Promise<VerifyResult[]> {
  if (addresses.length > MAX_ADDRESSES)
    throw new UsageError(`verify takes at most ${MAX_ADDRESSES} addresses`, 'for a list, clean it');
  const maxAgeMs = maxAgeOf(o.maxAge, 'maxAge');
  const emit = o.onEvent ?? (() => undefined);
  const stop = AbortSignal.any([o.signal, o.abandon].filter((s): s is AbortSignal => s !== undefined));
  const abort = o.abandon ?? new AbortController().signal;
  const service = account.settings.cleanUrl !== undefined && !o.local;
  const decided = addresses.map((address) => ({ address, ...prefilter(address, o.caseSensitive) }));
  const keys = [...new Set(decided.flatMap((d) => (d.key === undefined ? [] : [d.key])))];
  const { checkFewWithEngine, checkFewWithService } = await import('./check-few-with.js');
  const checked =
    keys.length === 0
      ? undefined
      : service
        ? await checkFewWithService(account, keys, {
            maxAgeMs,
            precheck: o.precheck ?? true,
            engine,
            stop,
            abort,
            emit,
          })
        : await checkFewWithEngine(keys, engine, account.settings.clock, stop, emit);
  const stopped = checked?.outcome.stopped;
  // A refused token, or a URL with no service behind it, fails the call (4, 1): no address was to blame.
  if (stopped?.error && (stopped.reason === 'auth' || stopped.reason === 'no-service')) throw stopped.error;
  if (stopped && stopped.reason !== 'interrupted') emit({ type: 'warning', message: stopped.message });
  return decided.map((d) => {
    const verdict = d.key === undefined ? prefilterVerdict('', d.reason) : checked?.results.get(d.key);
    const by = !service ? 'local' : verdict?.decidedBy === 'precheck' ? 'precheck' : 'service';
    return resultOf(d.address, verdict, by, d.key !== undefined && (checked?.fromCache.has(d.key) ?? false));
  });
}

function resultOf(
  address: string,
  verdict: Verdict | undefined,
  checker: VerifyResult['checker'],
  fromCache: boolean,
): VerifyResult {
  return {
    address,
    status: verdict?.status ?? 'unchecked',
    reason: verdict?.reason ?? '',
    valid: verdict?.valid ?? null,
    disposable: verdict?.disposable ?? null,
    validDomain: verdict?.validDomain ?? null,
    ...(verdict ? addressKind(verdict) : { free: null, role: null }),
    suggestion: verdict?.suggestion ?? null,
    serviceStatus: verdict?.serviceStatus ?? null,
    checker,
    fromCache,
    checkedAt: verdict?.checkedAt || null,
  };
}
