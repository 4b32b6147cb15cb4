// The built CLI as its own process (what only a real process shows: the modules it loads, its environment reaching
// native code), optionally recording the modules it resolves.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'mailclean.js');
const PROBE = join(import.meta.dirname, 'module-probe.mjs');

export interface SpawnedResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The URLs of the modules it resolved, when asked for. */
  modules: string[];
}

export async function spawnCli(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { stdin?: string; recordModules?: boolean } = {},
): Promise<SpawnedResult> {
  const probeDir = opts.recordModules ? mkdtempSync(join(tmpdir(), 'mailclean-probe-')) : undefined;
  const out = probeDir && join(probeDir, 'modules.txt');
  const nodeArgs = out ? ['--import', PROBE, BIN, ...args] : [BIN, ...args];
  try {
    const child = spawn(process.execPath, nodeArgs, {
      env: { ...env, ...(out ? { MODULE_PROBE_OUT: out } : {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(opts.stdin ?? '');
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    const modules = out ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
    return { code, stdout, stderr, modules };
  } finally {
    if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  }
}

/**
 * The source modules (`src/...ts`) in the files of dist/ that `urls` name. bin/mailclean.js runs the CLI's bundle,
 * whose chunks hold several modules each, each after a `// src/...` line (rolldown's module comments); a file of
 * tsc's dist/ is its own module.
 */
export function sourceModules(urls: string[]): string[] {
  const sources = new Set<string>();
  for (const url of urls) {
    const at = url.indexOf('/dist/');
    if (!url.startsWith('file:') || at < 0 || !url.endsWith('.js')) continue;
    const inDist = url.slice(at + 6);
    if (!/^(cli|chunks)\//.test(inDist)) {
      sources.add(`src/${inDist.replace(/\.js$/, '.ts')}`);
      continue;
    }
    for (const [, source] of readFileSync(new URL(url), 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm))
      sources.add(source as string);
  }
  return [...sources];
}
