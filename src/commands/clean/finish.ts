// The end of a run that wrote its outputs: the summary for the user, the files for machines (--summary-json,
// the GitHub job summary, --report), the --fail-when gate, and the exit code.
import { appendFileSync } from 'node:fs';
import type { CheckOutcome } from '../../clean/check/outcome.js';
import type { RunSummary } from '../../clean/run/summary.js';
import { crossedThresholds } from '../../clean/run/thresholds.js';
import { writeWhole } from '../../clean/write/atomic-file.js';
import type { Tally } from '../../clean/write/tally.js';
import { AuthError, CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { renderTable } from '../../io/table.js';
import { formatCount, quantity } from '../../quantities.js';
import { barChart } from './charts.js';
import type { CleanOptions } from './clean.js';
import { htmlReport } from './html-report.js';
import { reportPartial } from './report.js';
import { stepSummary } from './step-summary.js';

export async function finishRun(
  f: Factory,
  o: CleanOptions,
  summary: RunSummary,
  tally: Tally,
  outcome?: CheckOutcome,
): Promise<number> {
  printSummary(f, o, summary);
  let exitCode: number = ExitCode.ok;
  if (summary.unchecked.rows > 0) {
    if (outcome) reportPartial(f, summary.unchecked.rows, outcome);
    exitCode = ExitCode.partial;
  }
  const crossed = crossedThresholds(summary, o.failWhen ?? []);
  for (const c of crossed) {
    const actual = c.threshold.percent ? `${c.share.toFixed(1)}% of rows` : quantity(c.rows, 'row');
    f.io.say(`${f.io.style.red('fail-when:')} ${c.threshold.name} is ${actual} (${c.threshold.text})`);
    summary.failedWhen.push(`${c.threshold.text} (${c.threshold.name} is ${actual})`);
  }
  if (crossed.length > 0) exitCode = ExitCode.threshold;
  summary.exitCode = exitCode;
  await writeSideFiles(f, o, summary, tally);
  return exitCode;
}

/**
 * A run that ended by a signal or a failure (the token refused, local state that cannot be written): the side
 * files record how it ended (exit code, why), then it ends as it must: the signal's code, or the failure.
 */
export async function finishStoppedRun(
  f: Factory,
  o: CleanOptions,
  ended: Ended | undefined,
  outcome: CheckOutcome,
  interrupted: string,
): Promise<number> {
  const stopped = outcome.stopped!;
  if (stopped.reason === 'interrupted') f.io.say(interrupted);
  const error =
    stopped.reason === 'interrupted'
      ? undefined
      : (stopped.error ?? (stopped.reason === 'auth' ? new AuthError(stopped.message) : new CliError(stopped.message)));
  const exitCode = error?.exitCode ?? f.io.signals.exitCode;
  if (ended) {
    ended.summary.exitCode = exitCode;
    await writeSideFiles(f, o, ended.summary, ended.tally);
  }
  if (error) throw error;
  return exitCode;
}

/** What a run that stopped early still reports in its side files; undefined when none was asked for. */
export interface Ended {
  summary: RunSummary;
  tally: Tally;
}

function printSummary(f: Factory, o: CleanOptions, s: RunSummary): void {
  if (f.io.quiet) return;
  if (f.io.isStderrTTY) f.io.stderr.write(barChart(s, f.io.style));
  else {
    const rows = Object.entries(s.statuses).map(([status, n]) => [
      status,
      formatCount(n),
      `${((100 * n) / Math.max(1, s.rows)).toFixed(1)}%`,
    ]);
    f.io.stderr.write(renderTable(['STATUS', 'ROWS', 'SHARE'], rows, false));
  }
  const [main, rejects] = s.outputs;
  const where = `${quantity(main!.rows, 'row')} written to ${main!.path === '-' ? 'stdout' : main!.path}${o.backup ? ` (the original kept as ${o.backup})` : ''}`;
  const rest = rejects
    ? `, ${quantity(rejects.rows, 'row')} to ${rejects.path}`
    : o.only
      ? `, ${quantity(s.rows - main!.rows, 'row')} left out by --only`
      : '';
  const retried = s.retries ? ` (${quantity(s.retries, 'retry', 'retries')})` : '';
  const spent =
    s.requests > 0 || s.spent > 0
      ? `; spent ${quantity(s.spent, 'address', 'addresses')} in ${quantity(s.requests, 'request')}${retried}`
      : s.checker === 'local'
        ? ''
        : '; nothing spent';
  const saved =
    s.precheck && s.precheck.saved > 0
      ? `; the precheck saved ${quantity(s.precheck.saved, 'address', 'addresses')} of the allowance`
      : '';
  f.io.say(`${where}${rest}${spent}${saved}.`);
}

async function writeSideFiles(f: Factory, o: CleanOptions, s: RunSummary, tally: Tally): Promise<void> {
  if (o.summaryJson) await writeWhole(o.summaryJson, `${JSON.stringify(s, null, 2)}\n`);
  if (o.report) await writeWhole(o.report, htmlReport(s, tally.examples));
  const stepFile = f.io.env.GITHUB_STEP_SUMMARY;
  if (stepFile) {
    try {
      appendFileSync(
        stepFile,
        stepSummary(
          s,
          [o.summaryJson?.given, o.report?.given].filter((p): p is string => p !== undefined),
        ),
      );
    } catch (error) {
      f.io.warn(
        `cannot append the job summary to GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
}
