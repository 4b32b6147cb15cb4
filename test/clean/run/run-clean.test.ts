// The clean service without the CLI: runClean with a checker and ports a test answers, against the sandbox over
// real HTTP on 127.0.0.1 (both answer shapes). No terminal, no flags: what a library user would call.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CleaningClient } from '../../../src/api/cleaning.js';
import { HttpClient } from '../../../src/api/http.js';
import { EngineChecker } from '../../../src/clean/check/engine/engine-checker.js';
import { ServiceChecker } from '../../../src/clean/check/service/service-checker.js';
import type { RunEvent, RunPorts, RunQuestions } from '../../../src/clean/run/events.js';
import type { CleanRequest } from '../../../src/clean/run/request.js';
import { runClean } from '../../../src/clean/run/run-clean.js';
import type { AccountState } from '../../../src/clean/state/account-state.js';
import { openAccountState } from '../../../src/clean/state/open-state.js';
import { realClock } from '../../../src/clock.js';
import { UsageError } from '../../../src/errors.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';

const RATE = { requests: 1_000, windowMs: 1_000 };

function signals(): CleanRequest['signals'] & { stopNow(): void } {
  const stop = new AbortController();
  const abort = new AbortController();
  return { stop: stop.signal, abort: abort.signal, exitCode: 130, stopNow: () => stop.abort() };
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe.each(['spec', 'alt'] as const)('runClean with the cleaning service (%s answers)', (shape) => {
  let dir: string;
  let sandbox: SandboxHandle;
  let client: CleaningClient;
  let state: AccountState;
  const events: RunEvent[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mailclean-run-'));
    sandbox = await startSandbox({ port: 0, plan: 'pro', shape, rate: { requests: 1_000, windowMs: 60_000 } });
    let token: string | undefined;
    client = new CleaningClient(
      new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token }),
    );
    token = (await client.signup({ name: 'Run', email: `run-${shape}@example.com`, password: 'a long password' }))
      .token;
    state = await openAccountState({ dataDir: join(dir, 'data'), account: 'account' });
    events.length = 0;
  });
  afterEach(async () => {
    await state.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const list = (n: number, name = 'list.csv') => {
    const path = join(dir, name);
    const rows = Array.from({ length: n }, (_, i) => `Row ${i},person${i}@example.com`);
    writeFileSync(path, `Name,Email\n${rows.join('\n')}\n`);
    return path;
  };
  const request = (
    input: string,
    more: Partial<Omit<CleanRequest, 'signals'>> = {},
  ): CleanRequest & { sink: Sink; signals: ReturnType<typeof signals> } => {
    const sink = new Sink();
    return {
      input,
      strict: false,
      outputs: { format: 'csv', stdout: sink },
      dryRun: false,
      yes: false,
      maxAgeMs: 30 * 86_400_000,
      spoolDir: join(dir, 'spool'),
      clock: realClock,
      signals: signals(),
      ...more,
      sink,
    };
  };
  const checker = (opts: { maxSpend?: number; dryRun?: boolean } = {}) =>
    new ServiceChecker({
      state,
      client: opts.dryRun ? undefined : client,
      service: sandbox.url,
      rate: RATE,
      concurrency: 2,
      maxSpend: opts.maxSpend,
      clock: realClock,
    });
  const ports = (questions?: RunQuestions): RunPorts => ({ emit: (e) => events.push(e), questions });
  const of = <T extends RunEvent['type']>(type: T) =>
    events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

  it('writes every row with its verdict, pays each address once, and a second run reuses the journal', async () => {
    const input = list(120);
    const first = request(input);
    const result = await runClean(first, checker(), ports());
    expect(result.kind).toBe('finished');
    if (result.kind !== 'finished') return;
    expect(result.exitCode).toBe(0);
    expect(result.summary).toMatchObject({ rows: 120, unique: 120, spent: 120, requests: 3, checker: 'service' });
    const lines = first.sink.text.trim().split('\n');
    expect(lines).toHaveLength(121);
    expect(lines[0]).toMatch(/^Name,Email,email_status,/);
    expect(sandbox.stats().addressesCharged).toBe(120);
    // Progress never says more was spent than checked: both count answers once they are kept.
    const told = of('progress').filter((e) => e.change.spent !== undefined);
    expect(told.length).toBeGreaterThan(0);
    for (const { change } of told) expect(change.spent).toBeLessThanOrEqual(change.checked!);
    expect(told.at(-1)!.change).toMatchObject({ checked: 120, spent: 120 });

    events.length = 0;
    const again = await runClean(request(input), checker(), ports());
    expect(again.kind === 'finished' && again.summary.spent).toBe(0);
    expect(of('resumed')).toEqual([{ type: 'resumed', already: 120, unique: 120 }]);
    expect(sandbox.stats().addressesCharged).toBe(120);
  });

  it('asks through the port what to do with an unfinished earlier run, and a cancel sends nothing', async () => {
    const input = list(100);
    const stopped = await runClean(request(input), checker({ maxSpend: 40 }), ports());
    expect(stopped.kind === 'finished' && stopped.exitCode).toBe(3);
    expect(sandbox.stats().addressesCharged).toBe(40);

    const asked: unknown[] = [];
    const answering = (answer: 'resume' | 'restart' | 'cancel'): RunQuestions => ({
      earlierRun: async (facts) => {
        asked.push(facts);
        return answer;
      },
      confirmSpend: async () => true,
    });
    expect(await runClean(request(input), checker(), ports(answering('cancel')))).toEqual({ kind: 'cancelled' });
    expect(asked).toEqual([{ saved: 40, left: 60, unique: 100 }]);
    expect(of('nothing-sent')).toHaveLength(1);
    expect(sandbox.stats().addressesCharged).toBe(40);

    const resumed = await runClean(request(input), checker(), ports(answering('resume')));
    expect(resumed.kind === 'finished' && resumed.summary.spent).toBe(60);
    expect(sandbox.stats().addressesCharged).toBe(100);
  });

  it('without anyone to ask, an unfinished earlier run stops before paying, naming the flags that decide', async () => {
    const input = list(100);
    await runClean(request(input), checker({ maxSpend: 50 }), ports());
    await expect(runClean(request(input), checker(), ports())).rejects.toThrow(UsageError);
    await expect(runClean(request(input), checker(), ports())).rejects.toMatchObject({
      message: 'an earlier run of this list saved 50 answers and has 50 addresses left to check',
      hint: expect.stringMatching(/--resume .*--restart/),
    });
    expect(sandbox.stats().addressesCharged).toBe(50);
    // Starting over discards the journal; the cache still answers what was paid for (the CLI's --restart also sets
    // --max-age 0, to pay again).
    const restarted = await runClean(request(input, { earlierRun: 'restart' }), checker(), ports());
    expect(restarted.kind === 'finished' && restarted.summary.answered).toEqual({
      fromJournal: 0,
      fromCache: 50,
      sent: 50,
    });
    expect(sandbox.stats().addressesCharged).toBe(100);
  });

  it('asks before spending more than 1,000 addresses; a no sends nothing, `yes` does not ask', async () => {
    const input = list(1_001);
    const confirm: unknown[] = [];
    const questions: RunQuestions = {
      earlierRun: async () => 'resume',
      confirmSpend: async (facts) => {
        confirm.push(facts);
        return false;
      },
    };
    expect((await runClean(request(input), checker(), ports(questions))).kind).toBe('cancelled');
    expect(confirm).toEqual([{ addresses: 1_001, allowance: undefined }]);
    expect(sandbox.stats().cleanRequests).toBe(0);
    const yes = await runClean(request(input, { yes: true }), checker(), ports(questions));
    expect(yes.kind === 'finished' && yes.summary.spent).toBe(1_001);
    expect(confirm).toHaveLength(1);
  });

  it('a dry run counts what the journal answers and what the rest costs, and sends nothing', async () => {
    const input = list(80);
    await runClean(request(input), checker({ maxSpend: 30 }), ports());
    const dry = await runClean(request(input, { dryRun: true }), checker({ dryRun: true }), ports());
    expect(dry.kind).toBe('dry-run');
    if (dry.kind !== 'dry-run') return;
    expect(dry.report.fields).toMatchObject({
      checker: 'service',
      unique: 80,
      alreadyChecked: 30,
      toSend: 50,
      requests: 1,
    });
    expect(dry.report.signedIn).toBe(true);
    expect(sandbox.stats().addressesCharged).toBe(30);
  });

  // A copy of a list answered before: 60,000 answers in the cache and a list of them all, and one address more.
  it('a list answered from the cache pays only for what it lacks; run again, its journal answers that one first', async () => {
    const cache = await state.cache();
    const checkedAt = new Date().toISOString();
    const keys = Array.from({ length: 60_000 }, (_, i) => `someone.at.${i}@example.com`);
    const answer = { status: 'valid', valid: true, disposable: false, validDomain: true, reason: '', checkedAt };
    await cache.store(keys.map((key) => ({ ...answer, key, serviceStatus: 'deliverable' })));
    const input = join(dir, 'copy.csv');
    writeFileSync(input, `Email\n${[...keys, 'new@example.com'].join('\n')}\n`);
    for (const run of ['first', 'again'] as const) {
      const result = await runClean(request(input, { yes: true }), checker(), ports());
      expect(result.kind === 'finished' && result.summary.answered, run).toEqual(
        run === 'first'
          ? { fromJournal: 0, fromCache: 60_000, sent: 1 }
          : { fromJournal: 1, fromCache: 60_000, sent: 0 },
      );
    }
    expect(sandbox.stats().addressesCharged).toBe(1);
  });

  it('a stop lets the requests in flight finish: their answers are kept, no row is written, the next run pays the rest', async () => {
    const input = list(500);
    const req = request(input);
    const stopping: RunPorts = {
      emit: (e) => {
        events.push(e);
        // Stop once the first answers are in: the requests in flight still finish and are journaled.
        if (e.type === 'progress' && (e.change.checked ?? 0) > 0) req.signals.stopNow();
      },
    };
    const result = await runClean(
      req,
      new ServiceChecker({ state, client, service: sandbox.url, rate: RATE, concurrency: 1, clock: realClock }),
      stopping,
    );
    expect(result).toMatchObject({ kind: 'interrupted', exitCode: 130 });
    expect(req.sink.text).toBe('');
    const paid = sandbox.stats().addressesCharged;
    expect(paid).toBeGreaterThan(0);
    expect(paid).toBeLessThan(500);
    expect(of('interrupted')).toEqual([{ type: 'interrupted', answersSaved: paid }]);
    // It writes no row, so it never says it writes them.
    expect(of('progress').filter((e) => e.change.phase === 'writing')).toEqual([]);
    const rest = await runClean(request(input, { earlierRun: 'resume' }), checker(), ports());
    expect(rest.kind === 'finished' && rest.summary.spent).toBe(500 - paid);
    expect(sandbox.stats().addressesCharged).toBe(500);
  });
});

/**
 * A `--local` run of two addresses, one answered by the service before (in the account's cache); `emit` sees each
 * event with the run's signals. Returns the result, the rows written and the input as it is after the run.
 */
async function localRunWithACachedAnswer(emit: (event: RunEvent, run: ReturnType<typeof signals>) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'mailclean-run-'));
  const state = await openAccountState({ dataDir: join(dir, 'data'), account: 'account' });
  try {
    const input = join(dir, 'list.csv');
    // Reserved and malformed-domain addresses: the engine decides them without asking DNS.
    writeFileSync(input, 'email\npaid@example.test\nfree@example.invalid\n');
    const checkedAt = new Date().toISOString();
    await (await state.cache()).store([
      {
        key: 'paid@example.test',
        status: 'valid',
        valid: true,
        disposable: false,
        validDomain: true,
        reason: '',
        checkedAt,
      },
    ]);
    const sink = new Sink();
    const run = signals();
    const checker = await EngineChecker.start(
      { smtp: false, smtpPort: 25, dnsServers: ['127.0.0.1:9'] },
      { dryRun: false, state, onWarning: () => undefined },
    );
    const result = await runClean(
      {
        input,
        strict: false,
        outputs: { format: 'csv', stdout: sink },
        dryRun: false,
        yes: false,
        maxAgeMs: 86_400_000,
        spoolDir: join(dir, 'spool'),
        clock: realClock,
        signals: run,
      },
      checker,
      { emit: (event) => emit(event, run) },
    );
    return { result, rows: sink.text.trim().split('\n'), inputAfter: readFileSync(input, 'utf8') };
  } finally {
    await state.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runClean with the built-in engine', () => {
  it('stopped as the cache is read: says nothing of checking the rest, and ends interrupted', async () => {
    const events: RunEvent[] = [];
    const { result } = await localRunWithACachedAnswer((event, run) => {
      events.push(event);
      // Ctrl-C as the cache's read ends: the read is over, the engine has not started.
      if (event.type === 'from-cache') run.stopNow();
    });
    expect(events.some((e) => e.type === 'from-cache')).toBe(true);
    expect(events.filter((e) => e.type === 'kept')).toEqual([]);
    expect(result.kind).toBe('interrupted');
  });

  it('keeps what the service answered before (the cache) and checks only the rest, sending nothing', async () => {
    const events: RunEvent[] = [];
    const { result, rows, inputAfter } = await localRunWithACachedAnswer((event) => events.push(event));
    expect(result.kind === 'finished' && result.summary).toMatchObject({
      checker: 'local',
      spent: 0,
      answered: { fromCache: 1, sent: 1 },
    });
    expect(events).toContainEqual({ type: 'kept', kept: 1, toCheck: 1, fromJournal: 0, fromCache: 1 });
    expect(rows[1]).toMatch(/^paid@example\.test,valid,/);
    expect(rows[2]).toMatch(/^free@example\.invalid,invalid,false,false,false,reserved_domain,/);
    expect(inputAfter).toBe('email\npaid@example.test\nfree@example.invalid\n');
  });
});
