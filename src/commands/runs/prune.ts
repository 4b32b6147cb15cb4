// `mailclean runs prune`: forgets the runs that ended before a time, and the journals of their lists no kept run
// uses (a later clean of such a list pays again, unless the cache still holds its answers).
import { rmSync } from 'node:fs';
import { hostname } from 'node:os';
import type { AccountState, LoggedRun } from '../../clean/state/account-state.js';
import { parseDuration } from '../../config/duration.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { JsonFlag } from '../../io/json.js';
import { quantity } from '../../quantities.js';
import { cleaningAccountState } from '../common/account-state.js';

export async function pruneRuns(
  f: Factory,
  o: { olderThan: string; shared?: string; json?: JsonFlag },
): Promise<number> {
  const before = f.io.clock.now() - parseDuration(o.olderThan, '--older-than');
  const state = await cleaningAccountState(f, o.shared, 'run history');
  const runs = await state.runs();
  const old = runs.filter((run) => !run.live && Date.parse(run.end?.endedAt ?? run.startedAt) < before);
  const forgotten = await state.forgetRuns(old.map((run) => run.id));
  const journals = await forgetJournals(state, old, runs);
  if (o.json !== undefined) f.io.json({ forgotten, journals }, o.json, ['forgotten', 'journals']);
  else
    f.io.note(
      `Forgot ${quantity(forgotten, 'run')} older than ${o.olderThan} and ${quantity(journals, 'journal')} of their lists.`,
    );
  return ExitCode.ok;
}

/** Removes the journals (on this machine) of the lists of `old` that no other run uses; resolves to how many. */
async function forgetJournals(state: AccountState, old: LoggedRun[], runs: LoggedRun[]): Promise<number> {
  const forgotten = new Set(old.map((run) => run.id));
  const kept = new Set(runs.filter((run) => !forgotten.has(run.id)).map((run) => run.fingerprint));
  const lists = new Set(
    old.filter((run) => run.host === hostname() && !kept.has(run.fingerprint)).map((run) => run.fingerprint),
  );
  let removed = 0;
  for (const fingerprint of lists) if (await removeJournal(state, fingerprint)) removed++;
  return removed;
}

/** Holding the list's lock, so that no run appends to a journal being removed; a list in use is left alone. */
async function removeJournal(state: AccountState, fingerprint: string): Promise<boolean> {
  const busy = new AbortController();
  let unlock: () => void;
  try {
    unlock = await state.lockList(fingerprint, { signal: busy.signal, onWait: () => busy.abort() });
  } catch {
    return false;
  }
  try {
    const path = state.journalFile(fingerprint);
    const existed = state.savedAnswers(fingerprint).results.size > 0;
    rmSync(path, { force: true });
    return existed;
  } finally {
    unlock();
  }
}
