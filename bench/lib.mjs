// Shared by the benchmarks: run a node command, timing it and reading its peak RSS.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
const rssHook = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));

/** Runs `node args` with the RSS hook; resolves with wall ms, CPU ms, peak RSS bytes, exit code and stderr. */
export function measure(args, { env = {}, stdout = 'ignore', input } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--import', rssHook, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', stdout, 'pipe', 'pipe'],
    });
    if (input !== undefined) child.stdin.end(input);
    let stderr = '';
    let rssLine = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdio[3].on('data', (d) => (rssLine += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const rss = Number(/maxrss=(\d+)/.exec(rssLine)?.[1] ?? NaN);
      const cpuMs = Number(/cpu_us=(\d+)/.exec(rssLine)?.[1] ?? NaN) / 1000;
      resolve({ ms, cpuMs, rss, code, stderr });
    });
  });
}

export const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
