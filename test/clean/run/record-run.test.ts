// The run service keeps a record of each run that checks in its account's run history (record-run.ts): its start,
// its end however it ends, and a run that resumes one stopped early keeps its id and adds up its spend. Against the
// sandbox over real HTTP on 127.0.0.1 (both answer shapes), the account's state in a data directory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CleaningClient } from '../../../src/api/cleaning.js';
import { HttpClient } from '../../../src/api/http.js';
import { ServiceChecker } from '../../../src/clean/check/service/service-checker.js';
import type { RunEvent, RunPorts } from '../../../src/clean/run/events.js';
import type { CleanRequest } from '../../../src/clean/run/request.js';
import { runClean } from '../../../src/clean/run/run-clean.js';
import type { AccountState } from '../../../src/clean/state/account-state.js';
import { openAccountState } from '../../../src/clean/state/open-state.js';
import { realClock } from '../../../src/clock.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';

const RATE = { requests: 1_000, windowMs: 1_000 };

describe.each(['spec', 'alt'] as const)('the run history kept by the run service (%s answers)', (shape) => {
  let dir: string;
  let sandbox: SandboxHandle;
  let client: CleaningClient;
  let state: AccountState;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-record-'));
    sandbox = await startSandbox({ port: 0, plan: 'pro', shape, rate: { requests: 1_000, windowMs: 60_000 } });
    let token: string | undefined;
    client = new CleaningClient(
      new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token }),
    );
    token = (await client.signup({ name: 'Rec', email: `rec-${shape}@example.com`, password: 'a long password' }))
      .token;
    state = await openAccountState({ dataDir: join(dir, 'data'), account: 'account' });
  });
  afterEach(async () => {
    await state.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (n: number) => {
    const path = join(dir, 'list.csv');
    writeFileSync(path, `Email\n${Array.from({ length: n }, (_, i) => `person${i}@example.com`).join('\n')}\n`);
    return path;
  };
  const request = (input: string, more: Partial<CleanRequest> = {}) => {
    const stop = new AbortController();
    const req: CleanRequest = {
      input,
      strict: false,
      outputs: { format: 'csv', stdout: new Writable({ write: (_c, _e, done) => done() }) },
      dryRun: false,
      yes: true,
      maxAgeMs: 30 * 86_400_000,
      spoolDir: join(dir, 'spool'),
      clock: realClock,
      signals: { stop: stop.signal, abort: new AbortController().signal, exitCode: 130 },
      origin: { args: [input, '--yes'], cwd: dir },
      ...more,
    };
    return { req, stopNow: () => stop.abort() };
  };
  const checker = (maxSpend?: number, concurrency = 2) =>
    new ServiceChecker({ state, client, service: sandbox.url, rate: RATE, concurrency, maxSpend, clock: realClock });
  const quiet: RunPorts = { emit: () => undefined };

  it('a finished run: its list, rows, spend, statuses, outputs and command line', async () => {
    const input = list(120);
    const result = await runClean(request(input).req, checker(), quiet);
    expect(result.kind === 'finished' && result.exitCode).toBe(0);
    const [run, ...others] = await state.runs();
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      list: 'list.csv',
      input,
      checker: 'service',
      rows: 120,
      unique: 120,
      journaled: 0,
      resumedAt: null,
      host: hostname(),
      pid: process.pid,
      live: false,
      cwd: dir,
      args: [input, '--yes'],
      end: { outcome: 'success', exitCode: 0, spent: 120, outputs: [{ path: '-', role: 'output', rows: 120 }] },
    });
    const statuses = Object.values(run!.end!.statuses!).reduce((a, b) => a + b, 0);
    expect(statuses).toBe(120);
    expect(Date.parse(run!.end!.endedAt)).toBeGreaterThanOrEqual(Date.parse(run!.startedAt));
  });

  it('a run stopped by --max-spend ends partial; the run that finishes the list is a run of its own', async () => {
    const input = list(100);
    await runClean(request(input).req, checker(40), quiet);
    await runClean(request(input, { earlierRun: 'resume' }).req, checker(), quiet);
    const [second, first] = await state.runs();
    expect(first!.end).toMatchObject({ outcome: 'partial', exitCode: 3, spent: 40 });
    expect(second!.id).not.toBe(first!.id);
    expect(second).toMatchObject({ journaled: 40, end: { outcome: 'success', spent: 60 } });
    expect(sandbox.stats().addressesCharged).toBe(100);
  });

  it('an interrupted run is taken over by the run that resumes it: the same id, the spend of both attempts', async () => {
    const input = list(500);
    const { req, stopNow } = request(input);
    const stopping: RunPorts = {
      emit: (e: RunEvent) => {
        if (e.type === 'progress' && (e.change.checked ?? 0) > 0) stopNow();
      },
    };
    expect((await runClean(req, checker(undefined, 1), stopping)).kind).toBe('interrupted');
    const [stopped] = await state.runs();
    const paid = sandbox.stats().addressesCharged;
    expect(stopped!.end).toMatchObject({ outcome: 'interrupted', exitCode: 130, spent: paid });

    await runClean(request(input, { earlierRun: 'resume' }).req, checker(), quiet);
    const runs = await state.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: stopped!.id,
      startedAt: stopped!.startedAt,
      resumedAt: expect.any(String),
      journaled: 0,
      end: { outcome: 'success', spent: 500 },
    });
    expect(sandbox.stats().addressesCharged).toBe(500);
  });

  it('--restart starts a run of its own, leaving the interrupted one as it was', async () => {
    const input = list(300);
    const { req, stopNow } = request(input);
    const stopping: RunPorts = {
      emit: (e: RunEvent) => {
        if (e.type === 'progress' && (e.change.checked ?? 0) > 0) stopNow();
      },
    };
    await runClean(req, checker(undefined, 1), stopping);
    await runClean(request(input, { earlierRun: 'restart', maxAgeMs: 0 }).req, checker(), quiet);
    const [restarted, stopped] = await state.runs();
    expect(stopped!.end!.outcome).toBe('interrupted');
    expect(restarted).toMatchObject({ resumedAt: null, end: { outcome: 'success', spent: 300 } });
    expect(restarted!.id).not.toBe(stopped!.id);
  });

  it('a dry run is not recorded', async () => {
    const input = list(10);
    const result = await runClean(
      request(input, { dryRun: true }).req,
      new ServiceChecker({ state, service: sandbox.url, rate: RATE, concurrency: 1, clock: realClock }),
      quiet,
    );
    expect(result.kind).toBe('dry-run');
    expect(await state.runs()).toEqual([]);
  });
});
