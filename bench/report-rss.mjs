// Loaded with `node --import`: prints the process's peak resident set size (bytes) and CPU time on exit, on fd 3 if open, else stderr.
import { writeSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

// A worker thread loads this too (it inherits --import): only the process's own exit reports, for all its threads.
process.on('exit', () => {
  if (!isMainThread) return;
  const usage = process.resourceUsage();
  const line = `maxrss=${usage.maxRSS * 1024} cpu_us=${usage.userCPUTime + usage.systemCPUTime}\n`;
  try {
    writeSync(3, line);
  } catch {
    process.stderr.write(line);
  }
});
