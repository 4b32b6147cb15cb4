// `mailclean clean`, wired: the flags as a request, run by the library's client (which builds the checker they
// choose), the clean service's events rendered and its questions answered on a terminal, its result as the exit code.
import type { RunEvent } from '../../clean/run/events.js';
import type { CleanRequest } from '../../clean/run/request.js';
import type { RunResult } from '../../clean/run/run-clean.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { capYoungGeneration, youngGenerationGrowsLarge } from '../../young-generation.js';
import { checkChoice, cliClient } from './choose-checker.js';
import type { CleanOptions } from './clean.js';
import { eventRenderer } from './render.js';

/** Runs a clean with typed options; the exit code it returns is the run's. */
export async function runClean(o: CleanOptions, f: Factory): Promise<number> {
  const profile = await f.profile();
  profile.requireKnown();
  const { ProgressReporter } = await import('../../io/progress.js');
  const progress = new ProgressReporter(f.io.stderr, { live: f.io.isStderrTTY, quiet: f.io.quiet });
  const choice = await checkChoice(f, o);
  const client = await cliClient(f, o);
  const { terminalQuestions } = await import('./questions.js');
  const stopWatchingMemory = youngGenerationGrowsLarge ? capYoungGeneration() : () => undefined;
  const render = eventRenderer(f, progress, choice.kind);
  // The report's modules (its tables) are needed once the run is over, not before the first request: they load
  // during the first wait for the rate limit, when the run has nothing else to do, else after the run.
  let reportModule: Promise<typeof import('./report.js')> | undefined;
  const loadReport = () => (reportModule ??= import('./report.js'));
  const emit = (event: RunEvent) => {
    if (event.type === 'limit-wait') loadReport().catch(() => undefined);
    render.emit(event);
  };
  let result: RunResult;
  try {
    result = await client.run(cleanRequest(o, f), choice, { emit, questions: terminalQuestions(f) });
  } finally {
    stopWatchingMemory();
    progress.stop();
    await client.close();
  }
  const { reportDryRun, reportEnd } = await loadReport();
  if (result.kind === 'dry-run') reportDryRun(f, o, result.report);
  else if (result.kind !== 'cancelled') reportEnd(f, o, result);
  render.finish();
  return result.kind === 'dry-run' || result.kind === 'cancelled' ? ExitCode.ok : result.exitCode;
}

function cleanRequest(o: CleanOptions, f: Factory): CleanRequest {
  return {
    input: o.input,
    stdin: f.io.stdin,
    column: o.column,
    sheet: o.sheet,
    rawValues: o.rawValues,
    encoding: o.encoding,
    strict: o.strict,
    caseSensitive: o.caseSensitive,
    outputs: {
      format: o.format,
      escapeFormulas: o.escapeFormulas,
      output: o.output,
      backup: o.backup,
      stdout: f.io.rowsOut(),
      only: o.only,
      rejects: o.rejects,
      summaryJson: o.summaryJson,
      report: o.report,
      stepSummary: f.io.env.GITHUB_STEP_SUMMARY || undefined,
      countDomains: o.summaryJson !== undefined || o.report !== undefined,
    },
    dryRun: o.dryRun,
    earlierRun: o.restart ? 'restart' : o.resume ? 'resume' : undefined,
    yes: o.yes,
    maxAgeMs: o.maxAgeMs,
    failWhen: o.failWhen,
    spoolDir: `${f.dataDir}/spool`,
    signals: f.io.signals,
    clock: f.io.clock,
    origin: o.origin,
  };
}
