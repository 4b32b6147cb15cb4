// The built-in engine as a run's checker. Signed in (--local), the service's answers (journal, cache) are kept; the
// engine's own are never journaled or cached, so a later run with the service still asks about those.
import type { Engine } from '../../../verify/index.js';
import type { Checker, CheckWork, KnownSources, ListToCheck } from '../../run/checker.js';
import type { RunPorts } from '../../run/events.js';
import type { AccountState } from '../../state/account-state.js';
import { DomainProviders } from '../../verdict/domain-providers.js';
import { type ExtraColumn, SERVICE_COLUMNS, type Verdict } from '../../verdict/verdict.js';
import { VerdictTable } from '../../verdict/verdict-table.js';
import { cacheWhenAsked, journaledOf } from '../open-cache.js';
import { type CheckOutcome, nothingSpent } from '../outcome.js';
import { askProviders } from './ask-providers.js';
import { checkKnownKeys, checkWithEngine } from './check-with-engine.js';
import { type EngineSettings, engineOptionsOf } from './engine-settings.js';

/** Addresses waiting on the engine at once: it bounds its own DNS and SMTP concurrency. */
const ENGINE_CONCURRENCY = 256;

export class EngineChecker implements Checker {
  readonly kind = 'local';
  readonly extraColumns: readonly ExtraColumn[];

  private constructor(
    /** Undefined for a dry run. */
    private readonly engine: Engine | undefined,
    /** Signed in (--local): the service's answers are kept. */
    readonly runLog: AccountState | undefined,
    serviceConfigured: boolean,
    /** Filled by the engine's lookups. */
    readonly providers: DomainProviders,
  ) {
    // With a service configured, rows say who decided them: paid answers must be told from free ones.
    const own: ExtraColumn[] = ['email_suggestion', 'email_provider'];
    this.extraColumns = serviceConfigured ? [...own, ...SERVICE_COLUMNS] : own;
  }

  /** Made before the list is read, so that DNS answers for its domains come in while the rest is read. */
  static async start(
    settings: EngineSettings,
    opts: { dryRun: boolean; state?: AccountState; serviceConfigured?: boolean; onWarning: (message: string) => void },
  ): Promise<EngineChecker> {
    const withService = opts.serviceConfigured === true;
    const providers = new DomainProviders();
    if (opts.dryRun) return new EngineChecker(undefined, opts.state, withService, providers);
    const { Engine } = await import('../../../verify/index.js');
    const engine = new Engine({
      ...engineOptionsOf(settings),
      onWarning: opts.onWarning,
      onProvider: (domain, provider) => providers.set(domain, provider),
    });
    return new EngineChecker(engine, opts.state, withService, providers);
  }

  onNewKey(key: string): void {
    this.engine?.prefetch(key);
  }

  async known(list: ListToCheck, ports: RunPorts): Promise<KnownSources> {
    const state = this.runLog;
    if (!state) return { signedIn: false, journaled: new VerdictTable(list.unique) };
    const journaled = journaledOf(state, list).answers;
    // Reading only: a cache that was never written is not created.
    const wanted = state.hasCache() && list.maxAgeMs > 0 && journaled.size < list.unique.size;
    const warn = (message: string) => ports.emit({ type: 'warning', message });
    return { signedIn: true, journaled, cache: wanted ? cacheWhenAsked(state, warn, CACHE_LOST) : undefined };
  }

  async check(work: CheckWork, ports: RunPorts): Promise<CheckOutcome> {
    const engine = this.engine;
    if (!engine) throw new Error('a dry run checks nothing');
    const { verdicts, keys, signals } = work;
    const toCheck = keys.size - verdicts.size;
    const journaled = verdicts.size > 0;
    // The verdicts go in by number from here on: the memory that found numbers by address is given back.
    keys.dropIndex();
    ports.emit({
      type: 'progress',
      change: { phase: 'checking', rows: work.rows, unique: keys.size, toCheck, checked: 0 },
    });
    ports.emit({ type: 'progress-live', live: true });
    // A lookup can take seconds: waiting for those in flight would make a stop seem ignored.
    const stopEngine = () => void engine.close();
    signals.stop.addEventListener('abort', stopEngine, { once: true });
    try {
      const onVerdict = (ordinal: number, verdict: Verdict) => verdicts.set(ordinal, verdict);
      const onChecked = (checked: number) => ports.emit({ type: 'progress', change: { checked } });
      // Nearly every domain's answer came in while the list was read: only the other addresses wait on DNS.
      const known = await checkKnownKeys(keys, engine, {
        stop: signals.stop,
        now: () => work.clock.now(),
        onVerdict,
        onChecked,
        answered: journaled ? (ordinal) => verdicts.has(ordinal) : undefined,
      });
      const rest = known < toCheck && !signals.stop.aborted ? keys : [];
      await checkWithEngine(rest, engine, {
        skip: (ordinal) => verdicts.has(ordinal),
        concurrency: ENGINE_CONCURRENCY,
        stop: signals.stop,
        now: () => work.clock.now(),
        onVerdict,
        onChecked: (checked) => onChecked(known + checked),
      });
      // The journal's and the cache's addresses were not looked up: their domains are, for their provider.
      if (journaled && !signals.stop.aborted) await askProviders(keys, engine, this.providers, signals.stop);
      const { dns } = engine.stats();
      ports.emit({ type: 'debug', message: `local engine: ${dns.lookups} domain lookups, ${dns.queries} DNS queries` });
      return nothingSpent(signals.stop);
    } finally {
      signals.stop.removeEventListener('abort', stopEngine);
      ports.emit({ type: 'progress-live', live: false });
      await engine.close();
    }
  }

  async close(): Promise<void> {
    await this.engine?.close();
  }
}

const CACHE_LOST = 'the engine checks what the journal does not answer';
