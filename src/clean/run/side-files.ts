// What a run writes besides its rows (--summary-json, --report, GitHub's job summary), each whole and atomic.
import { appendFileSync } from 'node:fs';
import { writeWhole } from '../write/atomic-file.js';
import type { Tally } from '../write/tally.js';
import type { OutputsRequest } from './request.js';
import type { RunSummary } from './summary.js';

/** A job summary that cannot be appended is only warned about (`warn`): the run itself went well. */
export async function writeSideFiles(
  outputs: OutputsRequest,
  summary: RunSummary,
  tally: Tally,
  warn: (message: string) => void,
): Promise<void> {
  if (outputs.summaryJson) await writeWhole(outputs.summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
  // Imported when asked for: a run's first request does not wait for them to load.
  if (outputs.report) {
    const { htmlReport } = await import('../write/html-report.js');
    await writeWhole(outputs.report, htmlReport(summary, tally.examples));
  }
  if (!outputs.stepSummary) return;
  const files = [outputs.summaryJson?.given, outputs.report?.given].filter((p): p is string => p !== undefined);
  try {
    const { stepSummary } = await import('../write/step-summary.js');
    appendFileSync(outputs.stepSummary, stepSummary(summary, files));
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? String(error);
    warn(`cannot append the job summary to GITHUB_STEP_SUMMARY (${why})`);
  }
}
