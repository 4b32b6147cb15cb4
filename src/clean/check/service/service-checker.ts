// The cleaning service as a run's checker: the list locked to one run per account, its journal, the account's
// limiter, cache and claims, the allowance.
import type { Json } from '../../../api/shape.js';
import type { Clock } from '../../../clock.js';
import type { Rate } from '../../../config/rate.js';
import type { Checker, CheckWork, Cost, KnownSources, ListToCheck } from '../../run/checker.js';
import type { RunPorts } from '../../run/events.js';
import type { AccountState, KnownAllowance, ListJournal } from '../../state/account-state.js';
import { keepLearned } from '../../state/known-allowance.js';
import { holdsUntil } from '../../state/month.js';
import type { RateLimiter } from '../../state/rate-limiter.js';
import { SpendBooking } from '../../state/spend-booking.js';
import type { VerdictCache } from '../../state/verdict-cache.js';
import { DomainProviders } from '../../verdict/domain-providers.js';
import { type ExtraColumn, SERVICE_COLUMNS } from '../../verdict/verdict.js';
import { VerdictTable } from '../../verdict/verdict-table.js';
import type { EngineSettings } from '../engine/engine-settings.js';
import { cacheWhenAsked, journaledOf } from '../open-cache.js';
import { type CheckOutcome, nothingSpent } from '../outcome.js';
import { sendClaimed } from './send-claimed.js';
import { minimumTime, type SendOptions, sendToService, timeLeft } from './send-to-service.js';
import type { KnownCount } from './spend-budget.js';

export interface ServiceCheckerOptions {
  /** Undefined when no account is known (a dry run can still count). */
  state?: AccountState;
  /** Undefined for a dry run, which sends nothing. */
  client?: { clean(emails: string[], signal?: AbortSignal): Promise<Json[]> };
  service: string;
  rate: Rate;
  concurrency: number;
  maxSpend?: number;
  /** Undefined with --no-precheck. */
  precheck?: EngineSettings;
  clock: Clock;
}

export class ServiceChecker implements Checker {
  readonly kind = 'service';
  readonly extraColumns: readonly ExtraColumn[];
  readonly service: string;
  readonly runLog?: AccountState;
  readonly precheck?: EngineSettings;
  readonly providers?: DomainProviders;
  private allowance?: KnownAllowance;
  /** When `check` read the allowance it counts from. */
  private checkedFrom = 0;
  private journal?: ListJournal;
  private cache?: () => Promise<VerdictCache | undefined>;
  private earlier = 0;
  private unlock?: () => void;
  private booking?: SpendBooking;

  constructor(private readonly options: ServiceCheckerOptions) {
    this.allowance = options.state?.knownAllowance();
    this.service = options.service;
    this.runLog = options.state;
    this.precheck = options.precheck;
    // The precheck's lookups name each domain's provider; without them (--no-precheck) nothing would.
    this.providers = options.precheck && new DomainProviders();
    this.extraColumns = options.precheck ? ['email_provider', ...SERVICE_COLUMNS] : SERVICE_COLUMNS;
  }

  cost(): Cost {
    const { state, rate, maxSpend } = this.options;
    const waitFor = async (requests: number) =>
      state ? await state.limiter(rate).estimate(requests) : minimumTime(requests, rate);
    return { rate, waitFor, maxSpend, allowance: this.allowance };
  }

  async known(list: ListToCheck, ports: RunPorts): Promise<KnownSources | 'cancel'> {
    const { state } = this.options;
    if (!state) return { signedIn: false, journaled: new VerdictTable(list.unique) };
    this.openCache(state, ports);
    if (list.dryRun) return { signedIn: true, journaled: journaledOf(state, list).answers, cache: this.cache };
    this.unlock = await state.lockList(list.fingerprint, {
      signal: list.signals.stop,
      onWait: (owner) => ports.emit({ type: 'list-busy', owner }),
      onTakeOver: (owner, why) => ports.emit({ type: 'list-taken-over', owner, why }),
    });
    // Read once the list is ours: another run may have added to its journal while this one waited.
    const saved = journaledOf(state, list);
    const decided = await list.earlierRun(saved.answers.size);
    if (decided === 'cancel') return 'cancel';
    const restart = decided === 'restart';
    this.journal = state.openJournal(list.fingerprint, { restart });
    if (restart) return { signedIn: true, journaled: new VerdictTable(list.unique), cache: this.cache };
    if (saved.badLines > 0) ports.emit({ type: 'journal-damaged', lines: saved.badLines, path: this.journal.path });
    this.earlier = saved.answers.size;
    return { signedIn: true, journaled: saved.answers, cache: this.cache };
  }

  private openCache(state: AccountState, ports: RunPorts): () => Promise<VerdictCache | undefined> {
    this.cache ??= cacheWhenAsked(state, (message) => ports.emit({ type: 'warning', message }), CACHE_LOST);
    return this.cache;
  }

  async check(work: CheckWork, ports: RunPorts): Promise<CheckOutcome> {
    const { state, client } = this.options;
    if (!state || !client || !this.journal) throw new Error('the service checks only for a signed-in run');
    // Read again: another run of the account may have learned more while this one waited for its list.
    this.allowance = state.knownAllowance();
    this.checkedFrom = this.options.clock.now();
    // Every address answered already: nothing to send, so no claim, cache or request is needed.
    if (work.pending.size === 0) return { ...nothingSpent(work.signals.stop), saved: this.earlier };
    this.booking = new SpendBooking(state, this.options.clock);
    const outcome = await this.send(work, ports, state, client, intoTable(this.journal, work));
    // Stopped for the allowance: what the service said, with what was known besides (the renewal a sign-in named).
    if (outcome.stopped?.reason === 'allowance' && this.allowance) {
      const { limit, renewsAt } = this.allowance;
      outcome.allowance = { limit, renewsAt, ...outcome.allowance, left: 0 };
    }
    return { ...outcome, saved: this.earlier + this.journal.recorded };
  }

  private async send(
    work: CheckWork,
    ports: RunPorts,
    state: AccountState,
    client: NonNullable<ServiceCheckerOptions['client']>,
    journal: SendOptions['journal'],
  ): Promise<CheckOutcome> {
    const { pending, signals } = work;
    const limiter = state.limiter(this.options.rate);
    const onStop = () => ports.emit({ type: 'stopping' });
    signals.stop.addEventListener('abort', onStop, { once: true });
    ports.emit({
      type: 'progress',
      change: { phase: 'checking', rows: work.rows, unique: work.keys.size, toCheck: pending.size },
    });
    ports.emit({ type: 'progress-live', live: true });
    const cache = await this.cache?.();
    const options: SendOptions = {
      pending,
      journal,
      limiter,
      client,
      concurrency: this.options.concurrency,
      clock: this.options.clock,
      maxSpend: this.options.maxSpend,
      allowance: countOf(this.allowance),
      stop: signals.stop,
      abort: signals.abort,
      cache,
      onCacheError: (error) => {
        const why = `answers could not be kept in the verdict cache (${error.message})`;
        ports.emit({ type: 'warning', message: `${why}; they are in this list's journal` });
      },
      onEvent: progressOf(ports, pending, limiter, this.options.concurrency, this.booking!),
    };
    try {
      // Without a cache (it could not be opened, warned), another run's answers cannot be taken: send it all.
      if (!cache) return await sendToService(options);
      let told = false;
      return await sendClaimed({
        ...options,
        claims: state.claims(),
        cache,
        since: this.options.clock.now() - work.maxAgeMs,
        onWaiting: (addresses) => {
          if (!told) ports.emit({ type: 'awaiting-runner', addresses });
          told = true;
        },
      });
    } finally {
      ports.emit({ type: 'progress-live', live: false });
      signals.stop.removeEventListener('abort', onStop);
    }
  }

  async settle(outcome: CheckOutcome): Promise<void> {
    const { state } = this.options;
    if (!state) return;
    // Runs beside this one counted theirs down meanwhile: its spend goes on top. News the service gave since it
    // began counts part of that spend already, so then it counts down from what it began with.
    const known = state.knownAllowance();
    const told = known !== undefined && known.source !== 'run' && Date.parse(known.asOf) > this.checkedFrom;
    keepLearned(state, told ? this.allowance : known, {
      spent: outcome.spent,
      news: outcome.allowance,
      usedUp: outcome.stopped?.reason === 'allowance',
    });
    await this.booking?.finish(outcome.spent);
  }

  async close(): Promise<void> {
    await this.journal?.close();
    this.journal = undefined;
    this.unlock?.();
    this.unlock = undefined;
  }
}

/** Each answer also goes in the run's table as it is journaled, so a write that fails leaves it in the output. */
function intoTable(journal: ListJournal, work: CheckWork): SendOptions['journal'] {
  return {
    record(verdicts) {
      const written = journal.record(verdicts);
      for (const verdict of verdicts) work.verdicts.setKey(verdict.key, verdict);
      return written;
    },
  };
}

/** What the run may believe of the allowance before the service says anything: news from before it, maybe old. */
function countOf(known: KnownAllowance | undefined): KnownCount | undefined {
  return known?.left === undefined ? undefined : { left: known.left, until: holdsUntil(known), fresh: false };
}

const CACHE_LOST = 'addresses answered before are sent and paid for again (the journal still answers this list)';

/** The sender's events as the run's progress, each answer's spend booked as it comes. */
function progressOf(
  ports: RunPorts,
  pending: { readonly size: number },
  limiter: RateLimiter,
  concurrency: number,
  booking: SpendBooking,
): SendOptions['onEvent'] {
  let checked = 0;
  let requestsTook = 0;
  let answers = 0;
  return (event) => {
    if (event.type === 'answered') {
      booking.paidSoFar(event.spent);
      checked += event.addresses;
      if (event.tookMs !== undefined) {
        requestsTook += event.tookMs;
        answers++;
      }
      const requestMs = answers > 0 ? requestsTook / answers : undefined;
      const toCheck = pending.size;
      const unsent = toCheck - checked - (event.sending ?? 0);
      const etaMs = checked >= toCheck ? 0 : timeLeft(unsent, requestMs, concurrency, limiter);
      const change = { toCheck, checked, spent: event.spent, requests: event.requests, waitingMs: 0, etaMs };
      ports.emit({ type: 'progress', change });
    } else if (event.type === 'limit-wait') ports.emit({ type: 'limit-wait', ms: event.ms });
    else if (event.type === 'waiting' && event.why === 'rate')
      ports.emit({ type: 'progress', change: { waitingMs: event.ms } });
    else if (event.type === 'retry') ports.emit({ type: 'retry', message: event.message });
    else if (event.type === 'in-flight') ports.emit(event);
  };
}
