import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest starts the files that took longest in the last run first; without a last run (a fresh clone, CI's first
 * runtime) it starts the largest. The files that start processes and servers (test/e2e/) take longest whatever their
 * size, and one of them started last would run alone at the end: they go first.
 */
class ProcessesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (files.every((file) => this.ctx.cache.getTestSpecificationResult(file))) return sorted;
    const startsProcesses = (file: TestSpecification) => file.moduleId.includes('/test/e2e/');
    return [...sorted.filter(startsProcesses), ...sorted.filter((file) => !startsProcesses(file))];
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The suite talks to real servers on loopback; two workers match the machines' two cores.
    maxWorkers: 2,
    // A worker runs file after file in one process with its modules loaded once: starting a process and loading the
    // CLI's modules again for each file cost more CPU than most small files' tests. Every test file leaves
    // the process as it found it (servers closed, env, timers and TZ restored), and the suite passes in a shuffled
    // order (`npx vitest run --sequence.shuffle.files`).
    isolate: false,
    sequence: { sequencer: ProcessesFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
