// One run, whichever checker decides its addresses: scan the list, take what is known already, check the rest, write
// every row. A dry run stops after what is known and reports what the rest would cost.
import { formatCount } from '../../quantities.js';
import { type CheckOutcome, nothingSpent } from '../check/outcome.js';
import { type InputLayout, openInput } from '../scan/input/index.js';
import { type ScanResult, scanInput } from '../scan/scan.js';
import type { SharedStateError } from '../state/account-state.js';
import type { Checker, KnownSources } from './checker.js';
import type { DryRunReport } from './dry-run.js';
import { decideEarlierRun } from './earlier-run.js';
import type { RunEvent, RunPorts } from './events.js';
import type { Ended } from './finish-run.js';
import { answerKnown } from './known-answers.js';
import { type RunRecording, recordStart } from './record-run.js';
import type { CleanRequest } from './request.js';

export type RunResult = { kind: 'dry-run'; report: DryRunReport } | { kind: 'cancelled' } | Ended;

/** Above this many addresses, a run that pays asks before spending (where it can ask, and unless `yes`). */
const CONFIRM_ABOVE = 1_000;

export async function runClean(request: CleanRequest, checker: Checker, ports: RunPorts): Promise<RunResult> {
  const startedAt = request.clock.now();
  const { signals, spoolDir } = request;
  const reading = performance.now();
  try {
    const layout = asRun(request, await openInput({ ...request, path: request.input, signal: signals.stop }));
    let scan: ScanResult | undefined;
    try {
      ports.emit({ type: 'progress-live', live: true });
      scan = await scanInput(layout, {
        spoolDir,
        // Verdicts are kept by address number: a run that writes reads each row's number in its write pass.
        keepRowOrdinals: !request.dryRun,
        caseSensitive: request.caseSensitive,
        fixTypos: request.fixTypos !== undefined,
        onNewKey: checker.onNewKey?.bind(checker),
        onRows: (rows) => ports.emit({ type: 'progress', change: { rows } }),
        signal: signals.stop,
      });
      ports.emit({ type: 'progress-live', live: false });
      const readMs = Math.round(performance.now() - reading);
      ports.emit({
        type: 'debug',
        message: `read ${layout.displayName}: ${formatCount(scan.rows)} rows in ${readMs} ms`,
      });
      const { displayName, encodingGuessed, workbook } = layout;
      if (encodingGuessed || workbook) ports.emit({ type: 'input-read', displayName, encodingGuessed, workbook });
      ports.emit({
        type: 'scanned',
        displayName: layout.displayName,
        column: layout.emailColumnName,
        rows: scan.rows,
        unique: scan.unique.size,
        blank: scan.blank + scan.invalid,
        extracted: scan.extracted,
      });
      const result = await afterScan(request, checker, ports, { layout, scan, startedAt });
      // Last, where it is read: which rows to look at in the input.
      if (scan.ragged.rows > 0)
        ports.emit({ type: 'ragged', ...scan.ragged, columns: layout.columnCount, hasHeader: layout.hasHeader });
      return result;
    } finally {
      ports.emit({ type: 'progress-live', live: false });
      scan?.release();
      await layout.cleanup();
    }
  } finally {
    await checker.close();
  }
}

/**
 * A run that fixes typos checks other addresses than one that does not: the list's journal, lock and run record
 * are its own, so an earlier run of the other kind is neither resumed nor taken over (the cache still answers).
 */
function asRun(request: CleanRequest, layout: InputLayout): InputLayout {
  return request.fixTypos ? { ...layout, fingerprint: `${layout.fingerprint}:fix-typos` } : layout;
}

interface Scanned {
  layout: InputLayout;
  scan: ScanResult;
  startedAt: number;
}

async function afterScan(request: CleanRequest, checker: Checker, ports: RunPorts, run: Scanned): Promise<RunResult> {
  const { scan, layout } = run;
  let restarted = request.earlierRun === 'restart';
  const list = {
    fingerprint: layout.fingerprint,
    unique: scan.unique,
    dryRun: request.dryRun,
    restart: request.earlierRun === 'restart',
    maxAgeMs: request.maxAgeMs,
    signals: request.signals,
    earlierRun: async (saved: number) => {
      const decided = await decideEarlierRun(request, ports, scan.unique.size, saved);
      restarted ||= decided === 'restart';
      return decided;
    },
  };
  const known = await checker.known(list, ports);
  if (known === 'cancel') return cancelled(ports);
  if (request.dryRun) {
    // Imported where it is used: a run that checks never loads the dry run's report, nor a dry run the write pass.
    const { dryRunReport } = await import('./dry-run.js');
    return { kind: 'dry-run', report: await dryRunReport(request, checker, scan, known) };
  }
  const recording = await recordStart(request, checker, ports, {
    ...run,
    resumes: !restarted,
    journaled: known.journaled.size,
  });
  return checkAndWrite(request, checker, ports, { ...run, known, recording });
}

interface Known extends Scanned {
  known: KnownSources;
  recording?: RunRecording;
}

async function checkAndWrite(request: CleanRequest, checker: Checker, ports: RunPorts, run: Known): Promise<RunResult> {
  const { scan, known, recording } = run;
  let outcome: CheckOutcome | undefined;
  try {
    const answers = await answerKnown(request, checker, ports, scan, known);
    if (!(await spendAgreed(request, checker, ports, answers.pending.size))) {
      await recording?.cancelled();
      return cancelled(ports);
    }
    const work = {
      pending: answers.pending,
      keys: scan.unique,
      verdicts: answers.verdicts,
      rows: scan.rows,
      signals: request.signals,
      maxAgeMs: request.maxAgeMs,
      clock: request.clock,
    };
    // The shared state went away as the cache was read: nothing may be sent unbooked, the rest stays unchecked.
    outcome = answers.lost ? sharedLost(answers.lost) : await checker.check(work, keepingInFlight(ports, recording));
    await checker.settle?.(outcome);
    const { finishRun } = await import('./finish-run.js');
    const ended = await finishRun(request, checker, ports, { ...run, answers, outcome });
    await recording?.ended(ended, outcome);
    return ended;
  } catch (error) {
    await recording?.failed(error, outcome);
    throw error;
  }
}

const sharedLost = (error: SharedStateError): CheckOutcome => ({
  ...nothingSpent(),
  stopped: { reason: 'shared', message: error.message },
});

/** The run's record also keeps the count of addresses in flight (where a kill leaves it). */
function keepingInFlight(ports: RunPorts, recording: RunRecording | undefined): RunPorts {
  if (!recording) return ports;
  const emit = (event: RunEvent) => {
    if (event.type === 'in-flight') recording.inFlight(event.addresses);
    ports.emit(event);
  };
  return { emit, questions: ports.questions };
}

function cancelled(ports: RunPorts): RunResult {
  ports.emit({ type: 'nothing-sent' });
  return { kind: 'cancelled' };
}

async function spendAgreed(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  pending: number,
): Promise<boolean> {
  const cost = checker.cost?.();
  if (!cost || !ports.questions || request.yes) return true;
  const addresses = cost.maxSpend !== undefined ? Math.min(cost.maxSpend, pending) : pending;
  if (addresses <= CONFIRM_ABOVE) return true;
  return ports.questions.confirmSpend({ addresses, allowance: cost.allowance });
}
