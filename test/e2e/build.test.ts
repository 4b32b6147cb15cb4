// `npm run build` (run by `npm test`, `npm pack` and `npm ci`) while a `mailclean` linked to this clone runs: the
// build is made beside dist/ and moved in a file at a time, each rename replacing its old self, so every start during
// it finds a whole dist/ (issue 30). The old build (dist/ deleted, then tsc) fails this: starts in its seconds without
// dist/ crash with ERR_MODULE_NOT_FOUND; so did, now and then, renaming dist/ aside and the new one in.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mailclean.js');

describe('npm run build', () => {
  it('never leaves dist/ missing or partial while it runs', { timeout: 180_000 }, async () => {
    // The tree is built already (npm test builds first), so tsc's build mode finds nothing to compile and each build
    // is the part that touches dist/: every file copied in and renamed over its old self. Builds follow each other
    // for a few seconds while the program starts again and again.
    let building = true;
    const builds: (number | null)[] = [];
    const buildsDone = (async () => {
      const started = Date.now();
      while (builds.length < 3 || Date.now() - started < 3_000) {
        const build = spawn(process.execPath, [join(ROOT, 'tools', 'build.mjs')], { cwd: ROOT, stdio: 'pipe' });
        builds.push(await new Promise<number | null>((resolve) => build.on('close', (code) => resolve(code))));
      }
      building = false;
    })();
    let missing = 0;
    const poll = setInterval(() => {
      if (!existsSync(join(ROOT, 'dist', 'main.js')) || !existsSync(join(ROOT, 'dist', 'commands', 'index.js')))
        missing++;
    }, 1);
    const failures: string[] = [];
    let starts = 0;
    try {
      while (building) {
        starts++;
        await promisify(execFile)(process.execPath, [BIN, 'config', 'path']).catch((error: { stderr: string }) =>
          failures.push(error.stderr),
        );
      }
      await buildsDone;
    } finally {
      clearInterval(poll);
    }
    expect(builds.every((code) => code === 0)).toBe(true);
    expect(starts).toBeGreaterThan(3);
    expect(failures).toEqual([]);
    expect(missing).toBe(0);
    expect(spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' }).stdout).toBe(`${VERSION}\n`);
  });
});

describe('a clone that cannot build', () => {
  it('says so in one line: the build without its dev dependencies, the bin without dist/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailclean-unbuilt-'));
    try {
      // The clone as `npm install --omit=dev` leaves it: the sources and tools, no dev dependencies, no dist/.
      for (const path of ['bin/mailclean.js', 'bin/package.json', 'package.json', 'tools/build.mjs'])
        cpSync(join(ROOT, path), join(dir, path));
      const build = spawnSync(process.execPath, [join(dir, 'tools', 'build.mjs')], { cwd: dir, encoding: 'utf8' });
      expect(build.status).toBe(1);
      expect(build.stderr).toBe(
        'error: building mailclean needs its dev dependencies (typescript, rolldown missing): run `npm ci` (or `npm install`) without --omit=dev in the clone; to install mailclean without building, use the release tarball\n',
      );
      const run = spawnSync(process.execPath, [join(dir, 'bin', 'mailclean.js'), 'clean', 'list.csv'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `error: mailclean is not built here (${join(dir, 'dist')} is missing or partial): run \`npm ci\` in the clone (it builds dist/, with the dev dependencies)\n`,
      );
      // --version needs no build.
      expect(
        spawnSync(process.execPath, [join(dir, 'bin', 'mailclean.js'), '--version'], { encoding: 'utf8' }).stdout,
      ).toBe(`${VERSION}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
