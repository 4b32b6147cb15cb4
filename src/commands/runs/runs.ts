// `mailclean runs`: the run history of this profile's cleaning account, as `gh run list/view` shows a repository's.
import { ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { JsonFlag } from '../../io/json.js';
import { cleaningAccountState, shownAccountState } from '../common/account-state.js';
import { findRun } from './history.js';
import { runsTable, runView } from './render.js';
import { RUN_FIELDS, runJson } from './run-json.js';

export async function listRuns(f: Factory, o: { limit: string; shared?: string; json?: JsonFlag }): Promise<number> {
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit: "${o.limit}" is not a whole number above 0`);
  const state = await shownAccountState(f, o.shared, 'run history');
  const runs = state ? (await state.runs()).slice(0, limit).map((run) => runJson(run, state)) : [];
  if (o.json !== undefined) f.io.json(runs, o.json, RUN_FIELDS);
  else if (runs.length > 0) f.io.out(runsTable(runs, f.io.isStdoutTTY, f.io.clock.now()));
  // As `gh run list`: no runs is no failure, and only a terminal is told.
  else if (f.io.isStdoutTTY && state) f.io.note('No runs recorded for this account yet.');
  return ExitCode.ok;
}

export async function viewRun(f: Factory, id: string, o: { shared?: string; json?: JsonFlag }): Promise<number> {
  const state = await cleaningAccountState(f, o.shared, 'run history');
  const run = runJson(await findRun(state, id), state);
  if (o.json !== undefined) f.io.json(run, o.json, RUN_FIELDS);
  else f.io.out(runView(run));
  return ExitCode.ok;
}
