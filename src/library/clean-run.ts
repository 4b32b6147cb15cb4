// A clean under way, as a program holds it: an async iterable of its rows, and its `result` once it has ended.
import type { RunSignals } from '../clean/run/request.js';
import type { RunResult } from '../clean/run/run-clean.js';
import type { RunSummary } from '../clean/run/summary.js';
import type { RowReceiver } from '../clean/write/write-rows.js';
import { ExitCode } from '../errors.js';
import { RowQueue } from './row-queue.js';
import type { CleanResult, CleanRun, ResultRow } from './types.js';

export interface RunHooks {
  rows: RowReceiver;
  signals: RunSignals;
}

/** Starts `body` at once. Leaving the loop over its rows early stops the run at once; `settled` runs after it ends. */
export function startRun(
  body: (hooks: RunHooks) => Promise<RunResult>,
  given: { signal?: AbortSignal; abandon?: AbortSignal },
  settled?: () => Promise<void>,
): CleanRun {
  const queue = new RowQueue();
  const ours = new AbortController();
  const signals = runSignals(ours.signal, given);
  let summary: RunSummary | undefined;
  let ended = false;
  const done = (async () => {
    try {
      const rows = (row: Record<string, unknown>) => queue.receive(row as ResultRow);
      const result = publicResult(await body({ rows, signals }));
      if ('summary' in result) summary = result.summary ?? undefined;
      return result;
    } finally {
      ended = true;
      await settled?.();
    }
  })();
  done.then(
    () => queue.end(),
    (error: unknown) => queue.end({ error }),
  );
  return {
    get result() {
      queue.askResult();
      return done;
    },
    get summary() {
      return summary;
    },
    [Symbol.asyncIterator]() {
      return {
        next: () => queue.next(),
        return: async () => {
          await queue.close();
          if (!ended) ours.abort(new DOMException('the rows were no longer read', 'AbortError'));
          await done.catch(() => undefined);
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * `signal` is the first stage of stopping (the requests in flight finish and are kept), `abandon` the second; a
 * stopped run ends with the `exitCode` of the signal's reason, if it has one.
 */
function runSignals(ours: AbortSignal, given: { signal?: AbortSignal; abandon?: AbortSignal }): RunSignals {
  const hard = [ours, ...(given.abandon ? [given.abandon] : [])];
  const stop = AbortSignal.any([...hard, ...(given.signal ? [given.signal] : [])]);
  return {
    stop,
    abort: AbortSignal.any(hard),
    get exitCode() {
      const code = (stop.reason as { exitCode?: unknown } | undefined)?.exitCode;
      return typeof code === 'number' ? code : ExitCode.interrupted;
    },
  };
}

function publicResult(result: RunResult): CleanResult {
  switch (result.kind) {
    case 'dry-run':
      return { kind: 'dry-run', exitCode: ExitCode.ok, dryRun: result.report.fields };
    case 'cancelled':
      return { kind: 'cancelled', exitCode: ExitCode.ok };
    case 'interrupted':
      return { kind: 'interrupted', exitCode: result.exitCode, summary: result.summary ?? null };
    case 'finished':
      return { kind: 'finished', exitCode: result.exitCode, summary: result.summary };
  }
}
