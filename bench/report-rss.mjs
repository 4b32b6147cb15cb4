// Loaded with `node --import`: prints the process's peak resident set size (bytes) on exit, on fd 3 if open, else stderr.
import { writeSync } from 'node:fs';
process.on('exit', () => {
  const line = `maxrss=${process.resourceUsage().maxRSS * 1024}\n`;
  try {
    writeSync(3, line);
  } catch {
    process.stderr.write(line);
  }
});
