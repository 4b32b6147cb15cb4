// The end of a run that checked: every row written (none when interrupted), the summary, the side files, and how
// it ended. A failure still writes what it can, then is thrown.
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { AuthError, CliError, ExitCode } from '../../errors.js';
import { quantity } from '../../quantities.js';
import type { CheckOutcome } from '../check/outcome.js';
import type { InputLayout } from '../scan/input/index.js';
import { assertInputUnchanged, inputChanged, type ScanResult } from '../scan/scan.js';
import type { Verdict } from '../verdict/verdict.js';
import type { VerdictTable } from '../verdict/verdict-table.js';
import { type AnswerFor, type WriteOptions, type WriteSummary, writeRows } from '../write/write-rows.js';
import type { Checker } from './checker.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';
import { writeSideFiles } from './side-files.js';
import { type Checked, type OutputCount, type RunSummary, runSummary } from './summary.js';
import { type Crossing, crossedThresholds } from './thresholds.js';

export type Ended =
  | { kind: 'interrupted'; exitCode: number; summary?: RunSummary }
  | { kind: 'finished'; exitCode: number; summary: RunSummary; outcome: CheckOutcome; crossed: Crossing[] };

export async function finishRun(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  run: Checked,
): Promise<Ended> {
  const { layout, scan, answers, outcome } = run;
  const stopped = outcome.stopped?.reason;
  const before = stopped === 'interrupted' ? answers.keptBefore : undefined;
  const answerFor = verdictsByRow(checker, ports, layout, scan, answers.verdicts, before);
  const summaryOf = (written: WriteSummary, outputs: OutputCount[]) =>
    runSummary(request, checker, run, written, outputs);
  if (stopped === 'interrupted') {
    ports.emit({ type: 'interrupted', answersSaved: checker.kind === 'service' ? outcome.saved : undefined });
    const counting = countOnly(request, checker, run, ports);
    const counted = counting && (await writeRows(layout, answerFor, counting));
    const summary = counted ? summaryOf(counted, []) : undefined;
    if (summary) await sideFiles(request, ports, summary, counted!, request.signals.exitCode);
    return { kind: 'interrupted', exitCode: request.signals.exitCode, summary };
  }
  // Said only where rows are written: an interrupted run writes none (its side files are counted silently).
  ports.emit({ type: 'progress', change: { phase: 'writing', rows: scan.rows } });
  const failed = stopped === 'auth' || stopped === 'storage' || stopped === 'no-service';
  const options = writeOptions(request, checker, run, ports);
  const sent = answers.verdicts.size - answers.fromJournal - answers.fromCache - (answers.precheck?.decidedCount ?? 0);
  // Failed before checking anything: an output that already exists (an earlier run's) is left as it was.
  const kept = failed && sent === 0 ? keepExisting(options) : [];
  if (kept.length > 0) ports.emit({ type: 'outputs-kept', outputs: kept });
  const written = await writeRows(layout, answerFor, options);
  const summary = summaryOf(
    written,
    outputCounts(request, written).filter((c) => !kept.includes(c.path)),
  );
  if (failed) {
    const error =
      outcome.stopped!.error ??
      (stopped === 'auth' ? new AuthError(outcome.stopped!.message) : new CliError(outcome.stopped!.message));
    await sideFiles(request, ports, summary, written, error.exitCode);
    throw error;
  }
  const crossed = crossedThresholds(summary, request.failWhen ?? []);
  const exitCode =
    crossed.length > 0 ? ExitCode.threshold : summary.unchecked.rows > 0 ? ExitCode.partial : ExitCode.ok;
  await sideFiles(request, ports, summary, written, exitCode, crossed);
  return { kind: 'finished', exitCode, summary, outcome, crossed };
}

async function sideFiles(
  request: CleanRequest,
  ports: RunPorts,
  summary: RunSummary,
  written: WriteSummary,
  exitCode: number,
  crossed: Crossing[] = [],
): Promise<void> {
  summary.exitCode = exitCode;
  summary.failedWhen = crossed.map((c) => `${c.threshold.text} (${c.threshold.name} is ${crossingText(c)})`);
  await writeSideFiles(request.outputs, summary, written.tally, (message) => ports.emit({ type: 'warning', message }));
}

export function crossingText(c: Crossing): string {
  return c.threshold.percent ? `${c.share.toFixed(1)}% of rows` : quantity(c.rows, 'row');
}

// Each row's verdict by its address number, read in step with the rows. A list edited during the run is refused, or
// (the service) matched by address: new addresses are unchecked.
function verdictsByRow(
  checker: Checker,
  ports: RunPorts,
  layout: InputLayout,
  scan: ScanResult,
  verdicts: VerdictTable,
  before?: number,
): AnswerFor {
  if (inputChanged(layout, scan)) {
    if (checker.kind === 'local') assertInputUnchanged(layout, scan);
    ports.emit({ type: 'list-changed', displayName: layout.displayName });
    return (key) => {
      const ordinal = scan.unique.ordinal(key);
      return ordinal >= 0 ? verdicts.get(ordinal, before) : undefined;
    };
  }
  if (!scan.rowOrdinals) throw new Error("a scan for a run that writes keeps each row's address number");
  const nextOrdinal = scan.rowOrdinals.reader();
  scan.unique.dropIndex();
  return (): Verdict | undefined => verdicts.get(nextOrdinal(), before);
}

function writeOptions(
  request: CleanRequest,
  checker: Checker,
  { layout, scan }: Pick<Checked, 'layout' | 'scan'>,
  ports: RunPorts,
): WriteOptions {
  return {
    ...request.outputs,
    extraColumns: checker.extraColumns,
    providers: checker.providers,
    checked: scan.extracted > 0,
    fixTypos: request.fixTypos,
    signal: request.signals.stop,
    ...asScanned(layout, scan),
    warn: (message) => ports.emit({ type: 'warning', message }),
  };
}

/** Each row's cell decided as the scan did, taking from the scan of an unchanged file which cells are plain. */
function asScanned(layout: InputLayout, scan: ScanResult): Pick<WriteOptions, 'evenRows' | 'decide'> {
  const { decide } = scan;
  if (inputChanged(layout, scan)) return { decide };
  const plain = scan.plainRows?.reader();
  return {
    evenRows: scan.ragged.rows === 0,
    decide: plain ? (cell) => (plain() ? { key: cell!.trim() } : decide(cell)) : decide,
  };
}

// A pass that writes nothing, for a stopped run whose side files are owed their counts. Only a second signal
// interrupts it: the first already asked the run to stop, and this is how it stops.
function countOnly(
  request: CleanRequest,
  checker: Checker,
  run: Pick<Checked, 'layout' | 'scan'>,
  ports: RunPorts,
): WriteOptions | undefined {
  const { summaryJson, report, stepSummary } = request.outputs;
  if (!summaryJson && !report && !stepSummary) return undefined;
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  const options = writeOptions(request, checker, run, ports);
  return {
    ...options,
    output: undefined,
    rejects: undefined,
    backup: undefined,
    stdout: discard,
    rows: undefined,
    signal: request.signals.abort,
  };
}

function outputCounts(request: CleanRequest, written: WriteSummary): OutputCount[] {
  const counts: OutputCount[] = [{ path: request.outputs.output?.given ?? '-', role: 'output', rows: written.written }];
  if (request.outputs.rejects)
    counts.push({ path: request.outputs.rejects.given, role: 'rejects', rows: written.rejected });
  return counts;
}

/** Drops the output files that exist already from `options`, so they are not replaced; returns their names. */
function keepExisting(options: WriteOptions): string[] {
  const kept: string[] = [];
  if (options.output && existsSync(options.output.path)) {
    kept.push(options.output.given);
    options.output = undefined;
    options.backup = undefined;
    options.stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
  }
  if (options.rejects && existsSync(options.rejects.path)) {
    kept.push(options.rejects.given);
    options.rejects = undefined;
  }
  return kept;
}
