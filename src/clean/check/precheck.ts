// The precheck: before the service is paid, the built-in engine decides for free what it is sure of without the
// mailbox (PRECHECK_REASONS); only the rest is sent.
import type { Engine } from '../../verify/index.js';
import type { DomainProviders } from '../verdict/domain-providers.js';
import type { Verdict } from '../verdict/verdict.js';
import { askProviders } from './engine/ask-providers.js';
import { checkWithEngine } from './engine/check-with-engine.js';
import { type EngineSettings, engineOptionsOf } from './engine/engine-settings.js';

export const PRECHECK_REASONS: ReadonlySet<string> = new Set([
  'reserved_domain',
  'no_domain',
  'null_mx',
  'no_mx',
  'disposable',
  'possible_typo',
]);

/** Addresses the engine checks at once: enough to keep as many lookups in flight as the resolver takes. */
const CONCURRENCY = 256;

export interface PrecheckOutcome {
  byReason: Map<string, number>;
  decidedCount: number;
  /** DNS's error code when it does not answer: the domain checks were skipped, what needs no DNS was decided. */
  unreachable?: string;
  interrupted: boolean;
}

type OnDecided = (key: string, verdict: Verdict) => void;

export interface PrecheckOptions {
  signals: { stop: AbortSignal };
  /** The run's clock: what the precheck's verdicts are dated by. */
  now: () => number;
  onDecided?: OnDecided;
  onDebug?: (message: string) => void;
  /** Told each domain's mail provider as its lookup answers. */
  providers?: DomainProviders;
  /** Addresses answered already (the journal, the cache): their domains are asked for their provider alone. */
  alsoAsk?: Iterable<string>;
}

/** Without `onDecided`, what it decides is only counted (a dry run). A stop abandons the lookups in flight. */
export async function runPrecheck(
  keys: Iterable<string>,
  settings: EngineSettings,
  opts: PrecheckOptions,
): Promise<PrecheckOutcome> {
  const { Engine } = await import('../../verify/index.js');
  const { providers } = opts;
  const engine = new Engine({
    // DNS alone: the precheck decides without asking any mail server.
    dns: { ...engineOptionsOf(settings).dns, confirmNoDomain: true },
    onWarning: (message) => opts.onDebug?.(message),
    onProvider: providers && ((domain, provider) => providers.set(domain, provider)),
  });
  const { stop } = opts.signals;
  const stopEngine = () => void engine.close();
  stop.addEventListener('abort', stopEngine, { once: true });
  try {
    const outcome = await precheck(keys, engine, { stop, now: opts.now }, opts.onDecided);
    if (providers && opts.alsoAsk) await askProviders(opts.alsoAsk, engine, providers, stop);
    return { ...outcome, interrupted: stop.aborted };
  } finally {
    stop.removeEventListener('abort', stopEngine);
    await engine.close();
  }
}

async function precheck(
  keys: Iterable<string>,
  engine: Engine,
  { stop, now }: { stop: AbortSignal; now: () => number },
  onDecided?: OnDecided,
): Promise<PrecheckOutcome> {
  const byReason = new Map<string, number>();
  let decidedCount = 0;
  // One verdict object per distinct engine verdict (the engine shares them): millions of rows store an index each.
  const marked = new Map<Verdict, Verdict>();
  const onVerdict = (_ordinal: number, verdict: Verdict, key: string) => {
    if (!PRECHECK_REASONS.has(verdict.reason)) return;
    decidedCount++;
    byReason.set(verdict.reason, (byReason.get(verdict.reason) ?? 0) + 1);
    if (!onDecided) return;
    let decided = marked.get(verdict);
    if (!decided) {
      decided = { ...verdict, decidedBy: 'precheck' };
      marked.set(verdict, decided);
    }
    onDecided(key, decided);
  };
  const { interrupted } = await checkWithEngine(keys, engine, {
    concurrency: CONCURRENCY,
    stop,
    now,
    onVerdict,
  });
  // Without DNS what needs none (reserved TLDs, the lists, typos) still stands: paying for it would be money lost.
  return { byReason, decidedCount, unreachable: engine.dnsSkipped(), interrupted };
}
