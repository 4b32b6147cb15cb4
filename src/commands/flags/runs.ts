import type { Command } from '@commander-js/extra-typings';
import { jsonOption, sharedOption } from '../common/options.js';
import type { Runner } from '../index.js';
import { RUN_FIELDS } from '../runs/run-json.js';

const shared = () => sharedOption("every runner's runs, from the Redis the account shares");

const RUNS_HELP = `
Each run of \`clean\` that checks addresses is recorded when it starts and when it ends: its list, rows, spend,
outcome and outputs, and its command line (paths absolute, secrets removed). A run killed before its end shows as
"unfinished" until \`runs resume ID\` (or \`clean --resume\` of the same list) continues it; \`runs resume ID\` also
continues a run that ended with rows unchecked (partial: the allowance, --max-spend). The resumed run keeps the ID
and nothing already paid for is paid again; a list changed since its run read it is not resumed (exit 2). Without a shared store, this machine's runs are listed; with
one (--shared, MAILCLEAN_REDIS_URL or the profile key \`shared\`), every runner's.

\`mailclean runs\` is \`mailclean runs list\` (-L/--limit N, default 20; --json FIELDS). JSON fields of list and view
(docs/json.md): ${wrapped(RUN_FIELDS.join(', '), 100)}.

Exit codes: 0 ok (also when there are no runs), 1 no such run or the store cannot be read, 2 usage (a run that
cannot be resumed: still running, finished, on another machine, read from stdin, or its list changed); \`runs resume\` exits as \`clean\`.`;

export function define(cmd: Command, run: Runner): void {
  cmd.addHelpText('after', RUNS_HELP);
  cmd
    .command('list', { isDefault: true })
    .description('list the runs, newest first')
    .option('-L, --limit <n>', 'at most this many runs', '20')
    .addOption(shared())
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../runs/runs.js')).listRuns(f, opts)));
  cmd
    .command('view')
    .description('show one run: counts by status, spend, allowance, outputs, command line')
    .argument('<id>', 'the run, as `mailclean runs` lists it')
    .addOption(shared())
    .addOption(jsonOption())
    .action(run(async (f, opts, [id]) => (await import('../runs/runs.js')).viewRun(f, id, opts)));
  cmd
    .command('resume')
    .description('continue a run with rows left to check, with the flags it was started with')
    .argument('<id>', 'the run, as `mailclean runs` lists it')
    .option(
      '--shared <redis-url>',
      'the Redis URL to use when the run was started with one (its password is not recorded)',
    )
    .action(run(async (f, opts, [id]) => (await import('../runs/resume.js')).resumeRun(f, id, opts)));
  cmd
    .command('prune')
    .description("forget runs that ended before a time, and their lists' journals")
    .requiredOption('--older-than <duration>', 'forget runs that ended (or started, if unfinished) before, e.g. 90d')
    .addOption(shared())
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../runs/prune.js')).pruneRuns(f, opts)));
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
