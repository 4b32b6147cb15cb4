// The free answers for a paying run's addresses, a chunk at a time as the sending reaches them: the account's cache
// within --max-age, then the precheck. The first request leaves once its chunk is screened, not once the whole list
// is; what a chunk's screening decides leaves `pending` before that chunk is claimed, so nothing the cache or the
// precheck answers is sent. `finish` screens what the sending never reached (a run stopped by --max-spend or the
// allowance), so the output is the one screening everything first gave, and says what was found.

import type { Engine } from '../../verify/index.js';
import { mergePrecheck, type PrecheckOutcome, precheck, precheckEngine } from '../check/precheck.js';
import type { KeysExcept } from '../scan/keys-except.js';
import { SharedStateError } from '../state/account-state.js';
import type { FoundAnswer, VerdictCache } from '../state/verdict-cache.js';
import type { Verdict } from '../verdict/verdict.js';
import type { Checker } from './checker.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';

/** What the screening found, in all. */
export interface Screened {
  fromCache: number;
  precheck?: PrecheckOutcome;
  /** The shared state went away while what the sending never reached was screened: the rest stays unchecked. */
  lost?: SharedStateError;
}

export class Screening {
  private readonly unscreened: Iterator<string>;
  private readonly found: Screened;
  private engine?: Promise<Engine>;
  private readonly marked = new Map<Verdict, Verdict>();
  /** Chunks screened ahead of the sending (see `fill`), and the screening that fills them. */
  private readonly ready: string[][] = [];
  private filling?: Promise<void>;
  private failure?: unknown;
  private readonly stopEngine = () => void this.engine?.then((engine) => engine.close());

  constructor(
    private readonly request: CleanRequest,
    private readonly checker: Checker,
    private readonly ports: RunPorts,
    pending: KeysExcept,
    private readonly answered: FoundAnswer,
    /** Undefined when the cache was read for the whole list already (`fromCache` found): chunks ask the precheck. */
    private readonly cache?: () => Promise<VerdictCache | undefined>,
    fromCache = 0,
  ) {
    this.found = { fromCache };
    this.unscreened = pending[Symbol.iterator]();
    request.signals.stop.addEventListener('abort', this.stopEngine, { once: true });
  }

  /**
   * The next `size` addresses not screened yet, less those the cache or the precheck answered (a chunk `fill`
   * screened already, if any); undefined: none left.
   */
  async next(size: number): Promise<string[] | undefined> {
    await this.filling;
    if (this.failure !== undefined) throw this.failure;
    return this.ready.shift() ?? (await this.screenNext(size));
  }

  /**
   * Screens chunks of `size` ahead until `chunks` are ready: for the sending's waits for the rate limit, when it has
   * nothing else to do. Screening while requests go out delays them, and every request after them (each holds its
   * slot until a window after its answer): measured, that cost more than screening the whole list first.
   */
  fill(chunks: number, size: number): void {
    this.filling ??= (async () => {
      while (this.ready.length < chunks && !this.request.signals.stop.aborted) {
        const chunk = await this.screenNext(size);
        if (chunk === undefined) break;
        this.ready.push(chunk);
      }
    })()
      // Its failure is the next chunk's to report.
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.filling = undefined;
      });
  }

  private async screenNext(size: number): Promise<string[] | undefined> {
    const chunk: string[] = [];
    for (let next = this.unscreened.next(); !next.done; next = this.unscreened.next())
      if (chunk.push(next.value) === size) break;
    if (chunk.length === 0) return undefined;
    const decided = await this.screen(chunk);
    return decided.size > 0 ? chunk.filter((key) => !decided.has(key)) : chunk;
  }

  /** Screens what is left (none once the run was stopped), ends the precheck, and says what was found. */
  async finish(): Promise<Screened> {
    try {
      while (!this.request.signals.stop.aborted && (await this.next(SCREEN_CHUNK)) !== undefined);
    } catch (error) {
      // Every row is still written: what could not be screened is unchecked, as the sending's stop says.
      if (!(error instanceof SharedStateError)) throw error;
      this.found.lost = error;
    } finally {
      await this.close();
    }
    const { fromCache, precheck: outcome } = this.found;
    if (fromCache > 0) this.ports.emit({ type: 'from-cache', addresses: fromCache, maxAgeMs: this.request.maxAgeMs });
    if (outcome) this.ports.emit({ type: 'precheck', outcome });
    return this.found;
  }

  /** Ends the precheck's engine (its DNS lookups): a run that failed screens no more. */
  async close(): Promise<void> {
    await this.filling;
    this.request.signals.stop.removeEventListener('abort', this.stopEngine);
    await (await this.engine?.catch(() => undefined))?.close();
  }

  /** Answers what the cache and the precheck can of `chunk`; returns the addresses they answered. */
  private async screen(chunk: string[]): Promise<Set<string>> {
    const { request, checker } = this;
    const decided = new Set<string>();
    const answered: FoundAnswer = (key, verdict, time) => {
      decided.add(key);
      this.answered(key, verdict, time);
    };
    const cache = request.maxAgeMs > 0 ? await this.cache?.() : undefined;
    if (cache) this.found.fromCache += await cache.lookupEach(chunk, request.clock.now() - request.maxAgeMs, answered);
    if (!checker.precheck || request.signals.stop.aborted) return decided;
    const onDebug = (message: string) => this.ports.emit({ type: 'debug', message: `precheck: ${message}` });
    this.engine ??= precheckEngine(checker.precheck, onDebug);
    const left = decided.size > 0 ? chunk.filter((key) => !decided.has(key)) : chunk;
    const outcome = await precheck(left, await this.engine, {
      stop: request.signals.stop,
      now: Date.now,
      onDecided: answered,
      marked: this.marked,
    });
    this.found.precheck = mergePrecheck(this.found.precheck, outcome);
    return decided;
  }
}

/** Addresses screened at once by `finish`. */
const SCREEN_CHUNK = 10_000;
