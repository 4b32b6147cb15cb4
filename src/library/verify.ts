// A few addresses checked now: by the cleaning service through the account's limiter and its verdict cache (answers
// within maxAge are not paid again, new ones are kept), or by the built-in engine.

import { engineVerdict } from '../clean/check/engine/check-with-engine.js';
import { type EngineSettings, engineOptionsOf } from '../clean/check/engine/engine-settings.js';
import { cacheWhenAsked } from '../clean/check/open-cache.js';
import { type CheckOutcome, nothingSpent } from '../clean/check/outcome.js';
import { sendToService } from '../clean/check/service/send-to-service.js';
import { keyOfCell } from '../clean/scan/cell-key.js';
import { keepLearned } from '../clean/state/known-allowance.js';
import { atTime } from '../clean/state/verdict-cache.js';
import { DomainProviders } from '../clean/verdict/domain-providers.js';
import { addressKind, cellVerdict, type Verdict } from '../clean/verdict/verdict.js';
import type { Clock } from '../clock.js';
import { UsageError } from '../errors.js';
import type { Account } from './account.js';
import { engineSettings, nothingSent, whoChecks } from './checker.js';
import { maxAgeOf } from './clean-options.js';
import type { VerifyEvent, VerifyOptions, VerifyResult } from './types.js';

/** More is a list: `clean` it. */
export const MAX_VERIFIED = 500;

type FewChecked = { results: Map<string, Verdict>; fromCache: Set<string>; outcome: CheckOutcome };

interface Stops {
  stop: AbortSignal;
  abort: AbortSignal;
  emit: (event: VerifyEvent) => void;
  /** Each domain's provider, as the engine's or the precheck's lookups name it. */
  providers: DomainProviders;
}

/** Every address's verdict, in the order given; one not checked (stopped, allowance spent) is `unchecked`. */
export async function verifyWith(
  account: Account,
  addresses: readonly string[],
  o: VerifyOptions,
): Promise<VerifyResult[]> {
  if (addresses.length > MAX_VERIFIED)
    throw new UsageError(`verify takes at most ${MAX_VERIFIED} addresses`, 'for a list, clean it');
  const maxAgeMs = maxAgeOf(o.maxAge, account.settings.naming('maxAge'));
  const service = whoChecks(account.settings, o) === 'service';
  const engine = await engineSettings(o, account.settings);
  const stops: Stops = {
    stop: AbortSignal.any([o.signal, o.abandon].filter((s): s is AbortSignal => s !== undefined)),
    abort: o.abandon ?? new AbortController().signal,
    emit: o.onEvent ?? (() => undefined),
    providers: new DomainProviders(),
  };
  const decided = addresses.map((address) => ({ address, ...keyOfCell(address, o.caseSensitive) }));
  const keys = [...new Set(decided.flatMap((d) => (d.key === undefined ? [] : [d.key])))];
  const checked =
    keys.length === 0
      ? undefined
      : service
        ? await withService(account, keys, { maxAgeMs, precheck: o.precheck ?? true, engine }, stops)
        : await withEngine(account, keys, engine, stops);
  const { providers } = stops;
  const stopped = checked?.outcome.stopped;
  // A refused token, or a URL with no service behind it, fails the call: no address was to blame.
  if (stopped?.error && (stopped.reason === 'auth' || stopped.reason === 'no-service')) throw stopped.error;
  if (stopped && stopped.reason !== 'interrupted') stops.emit({ type: 'warning', message: stopped.message });
  return decided.map((d) => {
    const verdict = d.key === undefined ? cellVerdict('', d.reason) : checked?.results.get(d.key);
    const by = !service ? 'local' : verdict?.decidedBy === 'precheck' ? 'precheck' : 'service';
    const fromCache = d.key !== undefined && (checked?.fromCache.has(d.key) ?? false);
    return { ...resultOf(d.address, verdict, by, fromCache), provider: (d.key && providers.ofKey(d.key)) || null };
  });
}

async function withService(
  account: Account,
  keys: string[],
  o: { maxAgeMs: number; precheck: boolean; engine: EngineSettings },
  stops: Stops,
): Promise<FewChecked> {
  const client = await account.cleaning();
  const state = (await account.stateOr(nothingSent))!;
  const { clock, rate } = account.settings;
  const warn = (message: string) => stops.emit({ type: 'warning', message });
  const cache = await cacheWhenAsked(state, warn, 'answers are not kept or reused')();
  const results = new Map<string, Verdict>();
  const fromCache = new Set<string>();
  if (cache && o.maxAgeMs > 0)
    await cache.lookup(new Set(keys), clock.now() - o.maxAgeMs, (key, verdict, time) => {
      fromCache.add(key);
      results.set(key, { ...atTime(verdict, time), key });
    });
  const uncached = keys.filter((key) => !fromCache.has(key));
  if (o.precheck) await precheck(uncached, [...fromCache], o.engine, stops, results, clock);
  const outcome = await sendToService({
    pending: uncached.filter((key) => !results.has(key)),
    journal: {
      record: async (verdicts) => {
        for (const verdict of verdicts) results.set(verdict.key, verdict);
      },
    },
    client,
    limiter: state.limiter(rate),
    cache,
    clock,
    stop: stops.stop,
    abort: stops.abort,
    concurrency: account.settings.concurrency,
    onCacheError: (error) => warn(`answers could not be kept in the verdict cache (${error.message})`),
  });
  keepLearned(state, state.knownAllowance(), {
    spent: outcome.spent,
    news: outcome.allowance,
    usedUp: outcome.stopped?.reason === 'allowance',
  });
  await state.recordSpend(outcome.spent).catch(() => undefined);
  return { results, fromCache, outcome };
}

/** What DNS and lists decide for free of the addresses the cache did not answer (those are not sent). */
async function precheck(
  uncached: string[],
  cached: string[],
  engine: EngineSettings,
  { stop, emit, providers }: Stops,
  results: Map<string, Verdict>,
  clock: Clock,
): Promise<void> {
  const { runPrecheck } = await import('../clean/check/precheck.js');
  const outcome = await runPrecheck(uncached, engine, {
    signals: { stop },
    now: () => clock.now(),
    onDecided: (key, verdict) => results.set(key, { ...verdict, key }),
    onDebug: (message) => emit({ type: 'debug', message: `precheck: ${message}` }),
    providers,
    alsoAsk: cached,
  });
  if (uncached.length > 0) emit({ type: 'precheck', outcome });
}

async function withEngine(account: Account, keys: string[], settings: EngineSettings, o: Stops): Promise<FewChecked> {
  const { Engine } = await import('../verify/index.js');
  const engine = new Engine({
    ...engineOptionsOf(settings),
    onWarning: (message) => o.emit({ type: 'warning', message }),
    onProvider: (domain, provider) => o.providers.set(domain, provider),
  });
  const results = new Map<string, Verdict>();
  const checkedAt = () => new Date(account.settings.clock.now()).toISOString();
  // A lookup can take seconds: waiting for those in flight would make a stop seem ignored.
  const stopEngine = () => void engine.close();
  o.stop.addEventListener('abort', stopEngine, { once: true });
  try {
    await Promise.all(
      keys.map(async (key) => {
        const verdict = o.stop.aborted ? undefined : await engine.verify(key);
        // What a cancelled lookup answers says nothing of the address: it stays unchecked.
        if (verdict && !o.stop.aborted) results.set(key, engineVerdict(key, verdict, checkedAt()));
      }),
    );
  } finally {
    o.stop.removeEventListener('abort', stopEngine);
    await engine.close();
  }
  return { results, fromCache: new Set(), outcome: nothingSpent(o.stop) };
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
    provider: null,
    suggestion: verdict?.suggestion ?? null,
    serviceStatus: verdict?.serviceStatus ?? null,
    checker,
    fromCache,
    checkedAt: verdict?.checkedAt || null,
  };
}
