import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The suite talks to real servers on loopback; two workers match the machines' two cores.
    maxWorkers: 2,
    // A worker runs file after file in one process with its modules loaded once: starting a process and loading the
    // CLI's modules again for each of 125 files cost more CPU than most of the files' tests. Every test file leaves
    // the process as it found it (servers closed, env, timers and TZ restored), and the suite passes in a shuffled
    // order (`npx vitest run --sequence.shuffle.files`).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
