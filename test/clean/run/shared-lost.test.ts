// The shared state (Redis) gone after the run opened it, before or while the cache is read: the run sends nothing
// unbooked, writes every row (the rest unchecked) and ends partial (exit 3), and --resume finishes once it is back.
// The run service in-process against the sandbox and a real redis-server on loopback.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CleaningClient } from '../../../src/api/cleaning.js';
import { HttpClient } from '../../../src/api/http.js';
import { ServiceChecker } from '../../../src/clean/check/service/service-checker.js';
import type { RunPorts } from '../../../src/clean/run/events.js';
import type { CleanRequest } from '../../../src/clean/run/request.js';
import { runClean } from '../../../src/clean/run/run-clean.js';
import type { AccountState } from '../../../src/clean/state/account-state.js';
import { openAccountState } from '../../../src/clean/state/open-state.js';
import { realClock } from '../../../src/clock.js';
import { type SandboxHandle, startSandbox } from '../../../src/sandbox/server.js';
import { REDIS_SKIP_NOTE, type RedisHandle, redisInstalled, redisRequired, startRedis } from '../../helpers/redis.js';
import { TEST_PASSWORD_COST } from '../../helpers/sandbox.js';

if (!redisInstalled) console.log(`test/clean/run/shared-lost.test.ts: ${REDIS_SKIP_NOTE}`);

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _e: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe.runIf(redisInstalled || redisRequired).each(['without questions', 'asking questions'] as const)(
  'the shared state lost before the cache is read (%s)',
  (how) => {
    let dir: string;
    let redis: RedisHandle;
    let sandbox: SandboxHandle;
    let client: CleaningClient;
    const opened: AccountState[] = [];
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mailclean-lost-'));
      redis = await startRedis();
      sandbox = await startSandbox({ port: 0, plan: 'unlimited', passwordCost: TEST_PASSWORD_COST });
      let token: string | undefined;
      client = new CleaningClient(
        new HttpClient({ baseUrl: sandbox.url, serviceName: 'cleaning service', token: () => token }),
      );
      token = (await client.signup({ email: 'lost@example.com', password: 'a long password' })).token;
    });
    afterEach(async () => {
      for (const state of opened.splice(0)) await state.close();
      await redis.stop();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const run = async (earlierRun?: 'resume') => {
      const state = await openAccountState({ dataDir: dir, account: 'a1', sharedUrl: redis.url });
      opened.push(state);
      return {
        state,
        go: async () => {
          const input = join(dir, 'list.csv');
          writeFileSync(input, `email\n${Array.from({ length: 200 }, (_, i) => `p${i}@example.com`).join('\n')}\n`);
          const sink = new Sink();
          const request: CleanRequest = {
            input,
            strict: false,
            outputs: { format: 'csv', stdout: sink },
            dryRun: false,
            yes: true,
            earlierRun,
            maxAgeMs: 86_400_000,
            spoolDir: join(dir, 'spool'),
            clock: realClock,
            signals: { stop: new AbortController().signal, abort: new AbortController().signal, exitCode: 130 },
          };
          const checker = new ServiceChecker({
            state,
            client,
            service: sandbox.url,
            rate: { requests: 1_000, windowMs: 1_000 },
            concurrency: 2,
            clock: realClock,
          });
          // A run that can ask (a terminal) and one that cannot read the cache the same way, before they send.
          const ports: RunPorts = {
            emit: () => undefined,
            ...(how === 'asking questions' && {
              questions: { earlierRun: async () => 'resume' as const, confirmSpend: async () => true },
            }),
          };
          return { result: await runClean(request, checker, ports), rows: sink.text.trim().split('\n').slice(1) };
        },
      };
    };

    it('exit 3, every row written unchecked, nothing sent; --resume finishes once it is back', async () => {
      const first = await run();
      // The cache is opened (as a run's early steps open it), then Redis goes away.
      await first.state.cache();
      await redis.stop();
      const { result, rows } = await first.go();
      expect(result).toMatchObject({ kind: 'finished', exitCode: 3, outcome: { stopped: { reason: 'shared' } } });
      expect(rows).toHaveLength(200);
      expect(rows.filter((row) => !row.split(',').includes('unchecked'))).toEqual([]);
      expect(sandbox.stats().cleanRequests).toBe(0);

      await redis.restart();
      const resumed = await (await run('resume')).go();
      expect(resumed.result).toMatchObject({ kind: 'finished', exitCode: 0 });
      expect(sandbox.stats().addressesCharged).toBe(200);
    });
  },
);
