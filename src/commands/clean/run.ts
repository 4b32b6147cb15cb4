// `mailclean clean`, wired: the flags as a request run by the library's client, its events rendered on a terminal.
import type { RunResult } from '../../clean/run/run-clean.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { RunRequest } from '../../library/client.js';
import { capYoungGeneration, youngGenerationGrowsLarge } from '../../young-generation.js';
import type { CleanFlags } from './clean.js';
import { eventRenderer, noServiceNote } from './render.js';

export async function cleanCommand(o: CleanFlags, f: Factory): Promise<number> {
  (await f.profile()).requireKnown();
  const [{ ProgressReporter }, { checkChoice }, { terminalQuestions }] = await Promise.all([
    import('../../io/progress.js'),
    import('../../library/checker.js'),
    import('./questions.js'),
  ]);
  const client = await f.client(o.client);
  const choice = await checkChoice(o.checks, await client.settings());
  if (choice.checker === 'engine' && !o.checks.local) noServiceNote(f);
  const progress = new ProgressReporter(f.io.stderr, { live: f.io.isStderrTTY, quiet: f.io.quiet });
  const stopWatchingMemory = youngGenerationGrowsLarge ? capYoungGeneration() : () => undefined;
  const render = eventRenderer(f, progress, choice.checker);
  let result: RunResult;
  try {
    result = await client.run(cleanRequest(o, f), choice, { emit: render.emit, questions: terminalQuestions(f) });
  } finally {
    stopWatchingMemory();
    progress.stop();
  }
  const { reportDryRun, reportEnd } = await import('./report.js');
  if (result.kind === 'dry-run') reportDryRun(f, o, result.report);
  else if (result.kind !== 'cancelled') reportEnd(f, o, result);
  render.finish();
  return result.kind === 'dry-run' || result.kind === 'cancelled' ? ExitCode.ok : result.exitCode;
}

/** The request as the flags make it, with the streams and signals of this process. */
function cleanRequest({ request }: CleanFlags, f: Factory): RunRequest {
  return {
    ...request,
    stdin: f.io.stdin,
    outputs: { ...request.outputs, stdout: f.io.rowsOut(), stepSummary: f.io.env.GITHUB_STEP_SUMMARY || undefined },
    signals: f.io.signals,
  };
}
