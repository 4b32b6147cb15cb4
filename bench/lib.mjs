// Shared by the benchmarks: run a node command, timing it and reading its peak RSS.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * The path of a generated export of `rows` rows in bench/tmp (made by gen-csv.mjs on first use, then reused);
 * with `domains`, its addresses spread over that many `.bench` domains. Exits the benchmark if it cannot be made.
 */
export function generatedList(rows, { name = `list-${rows}.csv`, domains } = {}) {
  const work = join(root, 'bench', 'tmp');
  mkdirSync(work, { recursive: true });
  const file = join(work, name);
  if (!existsSync(file)) {
    const args = [join(root, 'bench', 'gen-csv.mjs'), String(rows), file, ...(domains ? ['1', String(domains)] : [])];
    if (spawnSync(process.execPath, args, { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  return file;
}
