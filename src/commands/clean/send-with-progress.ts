// Sending to the service with a live progress line and an ETA, through this machine's limiter or, with
// --shared, through Redis with claims so runners on several machines never pay twice.

import type { CleaningClient } from '../../api/cleaning.js';
import type { CheckOutcome } from '../../clean/check/outcome.js';
import { sendClaimed } from '../../clean/check/service/send-claimed.js';
import { type SendOptions, sendToService, timeLeft } from '../../clean/check/service/send-to-service.js';
import type { ScanResult } from '../../clean/scan/scan.js';
import type { AccountState, ListJournal } from '../../clean/state/account-state.js';
import type { KeySet, VerdictCache } from '../../clean/state/verdict-cache.js';
import type { Rate } from '../../config/rate.js';
import type { Factory } from '../../factory.js';
import type { ProgressReporter } from '../../io/progress.js';
import { quantity } from '../../quantities.js';
import type { CleanOptions } from './clean.js';

export interface SendRun {
  journal: ListJournal;
  client: CleaningClient;
  account: { rate: Rate; state?: AccountState };
  progress: ProgressReporter;
  cache: VerdictCache | undefined;
}

/** Sends with a live progress line and an ETA; the first Ctrl-C is acknowledged on it. */
export async function send(
  f: Factory,
  o: CleanOptions,
  pending: KeySet,
  scan: ScanResult,
  run: SendRun,
): Promise<CheckOutcome> {
  const { journal, client, account, progress } = run;
  const state = account.state!;
  const limiter = state.limiter(account.rate);
  const claims = state.claims();
  const { stop, abort } = f.io.signals;
  const onStop = () => progress.note('Stopping after the requests in flight (Ctrl-C again to stop at once)…');
  stop.addEventListener('abort', onStop, { once: true });
  const started = Date.now();
  let checked = 0;
  progress.update({
    phase: 'checking',
    rows: scan.rows,
    unique: scan.unique.size,
    toCheck: pending.size,
    checked: 0,
    spent: 0,
    requests: 0,
  });
  await progress.start();
  try {
    const options: SendOptions = {
      pending,
      journal,
      limiter,
      client,
      concurrency: o.concurrency,
      maxSpend: o.maxSpend,
      stop,
      abort,
      cache: run.cache,
      onCacheError: (error) =>
        f.io.warn(`answers could not be kept in the verdict cache (${error.message}); they are in this list's journal`),
      onEvent: (event) => {
        if (event.type === 'answered') {
          checked += event.addresses;
          const etaMs = timeLeft(pending.size - checked, checked, Date.now() - started, limiter);
          progress.update({ checked, spent: event.spent, requests: event.requests, waitingMs: 0, etaMs });
        } else if (event.type === 'limit-wait') progress.waiting(event.ms);
        else if (event.type === 'waiting' && event.why === 'rate') progress.update({ waitingMs: event.ms });
        else if (event.type === 'retry') f.io.debug(`retrying a batch: ${event.message}`);
      },
    };
    if (!claims || !run.cache) return await sendToService(options);
    let told = false;
    return await sendClaimed({
      ...options,
      claims,
      cache: run.cache,
      since: Date.now() - o.maxAgeMs,
      onWaiting: (n) => {
        if (!told)
          progress.note(
            `${quantity(n, 'address', 'addresses')} ${n === 1 ? 'is' : 'are'} being checked by another runner on this account; waiting for its answers…`,
          );
        told = true;
      },
    });
  } finally {
    progress.stop();
    stop.removeEventListener('abort', onStop);
  }
}
