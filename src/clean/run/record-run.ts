// A run's record in the run history, written when the run starts checking and when it ends; the next run that
// resumes its list takes it over. Keeping the record never fails the run: a warning says it was not kept.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, resolve } from 'node:path';
import { CliError, ExitCode, messageOf } from '../../errors.js';
import type { CheckOutcome } from '../check/outcome.js';
import type { InputLayout } from '../scan/input/index.js';
import { sameStamp, stampList } from '../scan/input/stamp.js';
import type { ScanResult } from '../scan/scan.js';
import {
  isResumable,
  isUnfinished,
  type LoggedRun,
  type RunEnd,
  type RunLog,
  type RunOutcome,
  type RunOutput,
  type RunRecord,
} from '../state/run-log.js';
import type { Checker } from './checker.js';
import type { RunPorts } from './events.js';
import type { Ended } from './finish-run.js';
import type { CleanRequest } from './request.js';
import type { RunSummary } from './summary.js';

export interface RunRecording {
  inFlight(addresses: number): void;
  ended(result: Ended, outcome: CheckOutcome): Promise<void>;
  cancelled(): Promise<void>;
  failed(error: unknown, outcome: CheckOutcome | undefined): Promise<void>;
}

interface Started {
  layout: InputLayout;
  scan: ScanResult;
  startedAt: number;
  resumes: boolean;
  journaled: number;
}

function keeper(log: RunLog, ports: RunPorts): (record: RunRecord) => Promise<void> {
  return async (record) => {
    try {
      await log.recordRun(record);
    } catch (error) {
      ports.emit({ type: 'warning', message: `this run could not be kept in the run history (${messageOf(error)})` });
    }
  };
}

export async function recordStart(
  request: CleanRequest,
  checker: Checker,
  ports: RunPorts,
  run: Started,
): Promise<RunRecording | undefined> {
  const log = checker.runLog;
  if (!log) return undefined;
  const keep = keeper(log, ports);
  const stamp = request.input === '-' ? null : (stampList(request.input) ?? null);
  const taken = run.resumes
    ? await resumedRun(log, { fingerprint: run.layout.fingerprint, stamp }, checker.kind, request.origin?.resumes)
    : undefined;
  const record: RunRecord = {
    id: taken?.id ?? randomBytes(4).toString('hex'),
    list: request.input === '-' ? run.layout.displayName : basename(request.input),
    input: request.input === '-' ? '-' : resolve(request.input),
    fingerprint: run.layout.fingerprint,
    stamp,
    checker: checker.kind,
    startedAt: taken?.startedAt ?? new Date(run.startedAt).toISOString(),
    resumedAt: taken ? new Date(run.startedAt).toISOString() : null,
    rows: run.scan.rows,
    unique: run.scan.unique.size,
    journaled: taken?.journaled ?? run.journaled,
    // What the attempt taken over, and those it took over, had in flight when they were killed.
    inFlightBefore: taken ? (taken.inFlightBefore ?? 0) + (log.inFlight(taken.id) ?? 0) : 0,
    host: hostname(),
    pid: process.pid,
    cwd: request.origin?.cwd ?? null,
    args: request.origin ? [...request.origin.args] : null,
    end: null,
  };
  await keep(record);
  const inFlight = inFlightKept(log, record.id, ports);
  // Nothing in flight yet; what an attempt taken over left is in the record now. The engine sends nothing.
  if (checker.kind === 'service') inFlight(0);
  // What the attempt taken over paid before it stopped: the answers its journal gained.
  const paidBefore = taken ? Math.max(0, run.journaled - taken.journaled) : 0;
  const end = (facts: Omit<RunEnd, 'endedAt'>) => {
    // Written over its list (--in-place): what a later resume reads is the list as the run left it.
    const written = request.outputs.backup !== undefined ? (stampList(request.input) ?? stamp) : stamp;
    const endedAt = new Date(request.clock.now()).toISOString();
    return keep({ ...record, stamp: written, end: { endedAt, ...facts, spent: paidBefore + facts.spent } });
  };
  return {
    inFlight,
    ended: (result, outcome) => end(endOf(request, checker, result, outcome)),
    cancelled: () => end({ ...nothingCounted(0), outcome: 'cancelled', exitCode: ExitCode.ok }),
    failed: (error, outcome) => end(failure(request, error, outcome)),
  };
}

/**
 * `id` when given (`runs resume ID`), else this machine's latest unfinished run of the list by the same checker. A
 * list changed since is another list.
 */
async function resumedRun(
  log: RunLog,
  list: Pick<RunRecord, 'fingerprint' | 'stamp'>,
  kind: Checker['kind'],
  id: string | undefined,
): Promise<RunRecord | undefined> {
  const same = (r: RunRecord) =>
    r.fingerprint === list.fingerprint && (!r.stamp || !list.stamp || sameStamp(r.stamp, list.stamp));
  try {
    const runs = await log.runs();
    const left = (r: LoggedRun) => (id === undefined ? isUnfinished(r) : r.id === id && isResumable(r));
    return runs.find((r) => left(r) && same(r) && r.checker === kind && r.host === hostname());
  } catch {
    return undefined;
  }
}

function inFlightKept(log: RunLog, id: string, ports: RunPorts): (addresses: number) => void {
  let told = false;
  return (addresses) => {
    try {
      log.recordInFlight(id, addresses);
    } catch (error) {
      const message = `what this run has in flight could not be kept (${messageOf(error)})`;
      if (!told) ports.emit({ type: 'warning', message });
      told = true;
    }
  };
}

const OUTCOMES: Record<number, RunOutcome> = {
  [ExitCode.ok]: 'success',
  [ExitCode.partial]: 'partial',
  [ExitCode.threshold]: 'failed-when',
};

function endOf(request: CleanRequest, checker: Checker, result: Ended, outcome: CheckOutcome): Omit<RunEnd, 'endedAt'> {
  const summary = result.summary;
  return {
    outcome: result.kind === 'interrupted' ? 'interrupted' : (OUTCOMES[result.exitCode] ?? 'failed'),
    exitCode: result.exitCode,
    spent: outcome.spent,
    statuses: summary?.statuses ?? null,
    outputs: outputsOf(request, summary),
    allowanceLeft: summary?.allowanceLeft ?? checker.cost?.().allowance?.left ?? null,
    message: outcome.stopped?.message ?? null,
  };
}

function failure(request: CleanRequest, error: unknown, outcome: CheckOutcome | undefined): Omit<RunEnd, 'endedAt'> {
  const interrupted = request.signals.stop.aborted;
  const exitCode = interrupted ? request.signals.exitCode : error instanceof CliError ? error.exitCode : ExitCode.error;
  return {
    ...nothingCounted(outcome?.spent ?? 0),
    outcome: interrupted ? 'interrupted' : 'failed',
    exitCode,
    message: messageOf(error),
  };
}

function nothingCounted(spent: number) {
  return { spent, statuses: null, outputs: [], allowanceLeft: null, message: null };
}

function outputsOf(request: CleanRequest, summary: RunSummary | undefined): RunOutput[] {
  const { output, rejects, summaryJson, report } = request.outputs;
  const outputs: RunOutput[] = (summary?.outputs ?? []).map((written) => ({
    path: (written.role === 'output' ? output?.path : rejects?.path) ?? '-',
    role: written.role,
    rows: written.rows,
  }));
  if (summary && summaryJson) outputs.push({ path: summaryJson.path, role: 'summary', rows: null });
  if (summary && report) outputs.push({ path: report.path, role: 'report', rows: null });
  return outputs;
}
