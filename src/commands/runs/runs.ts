// `mailclean runs`: the run history of this profile's cleaning account, as `gh run list/view` shows a
// repository's. Every run of `clean` that checks is recorded where the account's state is kept (clean/run/
// record-run.ts): the data directory holds this machine's runs, a shared Redis every runner's.
import type { Command } from '@commander-js/extra-typings';
import { ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { JsonFlag } from '../../io/json.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';
import { findRun, runHistory } from './history.js';
import { runsTable, runView } from './render.js';
import { RUN_FIELDS, runJson } from './run-json.js';

const SHARED = '--shared <redis-url>';
const SHARED_HELP =
  "every runner's runs, from the Redis the account shares (else MAILCLEAN_REDIS_URL, else the profile key `shared`)";

export function define(cmd: Command, run: Runner): void {
  cmd.addHelpText(
    'after',
    `
Each run of \`clean\` that checks addresses is recorded when it starts and when it ends: its list, rows, spend,
outcome and outputs, and its command line (paths absolute, secrets removed). A run killed before its end shows as
"unfinished" until \`runs resume ID\` (or \`clean --resume\` of the same list) continues it; the resumed run keeps
the ID and nothing already paid for is paid again. Without a shared store, this machine's runs are listed; with
one (--shared, MAILCLEAN_REDIS_URL or the profile key \`shared\`), every runner's.

\`mailclean runs\` is \`mailclean runs list\` (-L/--limit N, default 20; --json FIELDS). JSON fields of list and view
(docs/json.md): ${wrapped(RUN_FIELDS.join(', '), 100)}.

Exit codes: 0 ok (also when there are no runs), 1 no such run or the store cannot be read, 2 usage (a run that
cannot be resumed: still running, ended, on another machine, read from stdin); \`runs resume\` exits as \`clean\`.`,
  );
  cmd
    .command('list', { isDefault: true })
    .description('list the runs, newest first')
    .option('-L, --limit <n>', 'at most this many runs', '20')
    .option(SHARED, SHARED_HELP)
    .addOption(jsonOption())
    .action(run((f, opts) => listRuns(f, opts)));
  cmd
    .command('view')
    .description('show one run: counts by status, spend, allowance, outputs, command line')
    .argument('<id>', 'the run, as `mailclean runs` lists it')
    .option(SHARED, SHARED_HELP)
    .addOption(jsonOption())
    .action(run((f, opts, [id]) => viewRun(f, id, opts)));
  cmd
    .command('resume')
    .description('continue a run that stopped before its end, with the flags it was started with')
    .argument('<id>', 'the run, as `mailclean runs` lists it')
    .option(SHARED, 'the Redis URL to use when the run was started with one (its password is not recorded)')
    .action(
      run(async (f, opts, [id]) => {
        const { resumeRun } = await import('./resume.js');
        return resumeRun(f, id, opts);
      }),
    );
  cmd
    .command('prune')
    .description("forget runs that ended before a time, and their lists' journals")
    .requiredOption('--older-than <duration>', 'forget runs that ended (or started, if unfinished) before, e.g. 90d')
    .option(SHARED, SHARED_HELP)
    .addOption(jsonOption())
    .action(
      run(async (f, opts) => {
        const { pruneRuns } = await import('./prune.js');
        return pruneRuns(f, opts);
      }),
    );
}

async function listRuns(f: Factory, o: { limit: string; shared?: string; json?: JsonFlag }): Promise<number> {
  const limit = Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1)
    throw new UsageError(`--limit: "${o.limit}" is not a whole number above 0`);
  const state = await runHistory(f, o.shared);
  const runs = (await state.runs()).slice(0, limit).map((run) => runJson(run, state));
  if (o.json !== undefined) f.io.json(runs, o.json, RUN_FIELDS);
  else if (runs.length > 0) f.io.out(runsTable(runs, f.io.isStdoutTTY, Date.now()));
  // As `gh run list`: no runs is no failure, and only a terminal is told.
  else if (f.io.isStdoutTTY) f.io.note('No runs recorded for this account yet.');
  return ExitCode.ok;
}

async function viewRun(f: Factory, id: string, o: { shared?: string; json?: JsonFlag }): Promise<number> {
  const state = await runHistory(f, o.shared);
  const run = runJson(await findRun(state, id), state);
  if (o.json !== undefined) f.io.json(run, o.json, RUN_FIELDS);
  else f.io.out(runView(run));
  return ExitCode.ok;
}

/** Lines of at most `width` characters, broken after commas. */
function wrapped(text: string, width: number): string {
  const lines: string[] = [''];
  for (const word of text.split(' ')) {
    if (lines.at(-1)!.length + word.length > width) lines.push('');
    lines[lines.length - 1] += `${lines.at(-1) ? ' ' : ''}${word}`;
  }
  return lines.join('\n');
}
