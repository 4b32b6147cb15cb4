// `npm run build` (run by `npm test`, `npm pack` and `npm ci`) while a `mailclean` linked to this clone runs: the
// build is made beside dist/ and moved in a file at a time, each rename replacing its old self, so every start during
// it finds a whole dist/ (issue 30). The old build (dist/ deleted, then tsc) fails this: starts in its seconds without
// dist/ crash with ERR_MODULE_NOT_FOUND; so did, now and then, renaming dist/ aside and the new one in.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mailclean.js');

describe('npm run build', () => {
  it('never leaves dist/ missing or partial while it runs', { timeout: 180_000 }, async () => {
    const build = spawn(process.execPath, [join(ROOT, 'tools', 'build.mjs')], { cwd: ROOT, stdio: 'pipe' });
    let done = false;
    const exit = new Promise<number | null>((resolve) => build.on('close', (code) => resolve(code)));
    void exit.then(() => (done = true));
    let missing = 0;
    const poll = setInterval(() => {
      if (!existsSync(join(ROOT, 'dist', 'main.js')) || !existsSync(join(ROOT, 'dist', 'commands', 'index.js')))
        missing++;
    }, 1);
    const failures: string[] = [];
    let starts = 0;
    try {
      while (!done) {
        starts++;
        await promisify(execFile)(process.execPath, [BIN, 'config', 'path']).catch((error: { stderr: string }) =>
          failures.push(error.stderr),
        );
        // A start every quarter second: dozens land in a build's seconds, and they leave the CPU to the other tests.
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      clearInterval(poll);
    }
    expect(await exit).toBe(0);
    expect(starts).toBeGreaterThan(3);
    expect(failures).toEqual([]);
    expect(missing).toBe(0);
    expect(spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' }).stdout).toBe(`${VERSION}\n`);
  });
});
