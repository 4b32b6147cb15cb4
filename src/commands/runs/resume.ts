// `mailclean runs resume ID`: the run's own `clean` command again, with --resume, from the flags it recorded.
import { hostname } from 'node:os';
import { listChange } from '../../clean/scan/input/stamp.js';
import { isResumable, type LoggedRun } from '../../clean/state/run-log.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { isRedacted } from '../clean/origin.js';
import { cleaningAccountState } from '../common/account-state.js';
import { findRun } from './history.js';
import { commandLine } from './run-json.js';

export async function resumeRun(f: Factory, id: string, o: { shared?: string }): Promise<number> {
  const run = await findRun(await cleaningAccountState(f, o.shared, 'run history'), id);
  const args = resumeArgs(run, o.shared);
  f.io.note(`Resuming run ${run.id} of ${run.list}.`);
  const [{ Command }, { declareCleanFlags }, { startClean }] = await Promise.all([
    import('@commander-js/extra-typings'),
    import('../clean/clean.js'),
    import('../clean/options.js'),
  ]);
  const clean = declareCleanFlags(new Command('clean'))
    .exitOverride()
    .configureOutput({ writeOut: (s) => f.io.stdout.write(s), writeErr: (s) => f.io.stderr.write(s) });
  let exitCode = 0;
  clean.action(async (input, opts) => {
    exitCode = await startClean(f, clean, opts, [input], run.id);
  });
  await clean.parseAsync(args, { from: 'user' });
  return exitCode;
}

/** The recorded arguments, to continue the run: --resume instead of --restart, a --shared URL given again. */
function resumeArgs(run: LoggedRun, shared: string | undefined): string[] {
  const hint = '`mailclean runs` lists the runs; `mailclean runs view ID` shows how one ended';
  if (run.live) throw new UsageError(`run ${run.id} is still running (process ${run.pid} on ${run.host})`, hint);
  if (!isResumable(run))
    throw new UsageError(
      `run ${run.id} ended (${run.end?.outcome}): there is nothing to resume`,
      'cleaning its list again reuses every answer it paid for',
    );
  if (run.host !== hostname())
    throw new UsageError(
      `run ${run.id} ran on ${run.host}, where its list's journal is: resume it there`,
      `on ${run.host}: mailclean runs resume ${run.id}`,
    );
  if (!run.args) throw new UsageError(`run ${run.id} was not started from the command line: it has no flags to repeat`);
  if (run.input === '-')
    throw new UsageError(
      `run ${run.id} read its list from stdin, which cannot be read again`,
      'pipe the same list into `mailclean clean - --resume` with the same flags',
    );
  const change = run.stamp ? listChange(run.input, run.stamp) : undefined;
  if (change)
    throw new UsageError(
      `${run.input} changed since run ${run.id} read it (${change}): it is not resumed, and nothing was sent`,
      `to clean the list as it is now: ${commandLine([...run.args.filter((a) => a !== '--resume'), '--restart'])}`,
    );
  const args: string[] = [];
  for (let i = 0; i < run.args.length; i++) {
    const arg = run.args[i]!;
    if (arg === '--restart' || arg === '--resume') continue;
    if (arg === '--shared') {
      const url = run.args[++i]!;
      // Recorded without its password: --shared given now, else MAILCLEAN_REDIS_URL or the profile's, is used.
      if (shared !== undefined) args.push('--shared', shared);
      else if (!isRedacted(url)) args.push('--shared', url);
      continue;
    }
    args.push(arg);
  }
  return [...args, '--resume'];
}
