#!/usr/bin/env node
// `npm run test:dates`: the tests of what depends on the date (the allowance's month and renewal, spend by month,
// lock and claim ages, the run history, cached answers' ages) run again with the whole machine's clock set far from
// today, through Debian's libfaketime: mid-month, the last seconds of a year (the run crosses midnight), and a leap
// day. Each date's run is one vitest run of the files below; the first to fail ends this with its code.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

export const DATES = ['2027-06-15 12:00:00', '2027-12-31 23:59:55', '2028-02-29 08:00:00'];

export const FILES = [
  'test/clean/state/account-state.contract.test.ts',
  'test/clean/state/disk/journal.test.ts',
  'test/clean/state/disk/file-limiter.test.ts',
  'test/clean/state/redis/claims.test.ts',
  'test/clean/run/record-run.test.ts',
  'test/lock-files.test.ts',
  'test/commands/clean/with-service.test.ts',
  'test/commands/clean/allowance-budget.test.ts',
  'test/clean/check/service/send-to-service.test.ts',
  'test/commands/api.test.ts',
  'test/commands/allowance.test.ts',
  'test/commands/runs.test.ts',
  'test/commands/cache.test.ts',
  'test/commands/auth.test.ts',
  'test/e2e/journal.test.ts',
  'test/e2e/runs-kill.test.ts',
  'test/e2e/kill-resume.test.ts',
  'test/e2e/concurrent-allowance.test.ts',
];

if (spawnSync('sh', ['-c', 'command -v faketime'], { stdio: 'ignore' }).status !== 0) {
  const required = process.env.MAILCLEAN_REQUIRE_FAKETIME === '1';
  console.error(
    `test:dates: ${required ? 'failed' : 'skipped'}: faketime is not installed (Debian's package faketime); .ci/run installs it`,
  );
  process.exit(required ? 1 : 0);
}

for (const date of DATES) {
  console.error(`test:dates: at ${date} UTC`);
  // Timers run on the monotonic clock, which is left alone: only the date moves.
  const run = spawnSync('faketime', [date, 'npx', 'vitest', 'run', ...FILES, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TZ: 'UTC', FAKETIME_DONT_FAKE_MONOTONIC: '1' },
  });
  if (run.status !== 0) {
    console.error(`test:dates: failed at ${date} UTC`);
    process.exit(run.status ?? 1);
  }
}
