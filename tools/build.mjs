#!/usr/bin/env node
// `npm run build`: dist/ from src/ (tsc), then the man page and the disposable-domain list from it, all made in
// .tmp/ and swapped in by two renames. A `mailclean` linked to this clone (`npm install -g .`) keeps working while
// `npm test` or `npm pack` builds: the old dist/ stays whole until the new one is complete, and is removed after.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const next = join(root, '.tmp', `dist-${process.pid}`);
const old = join(root, '.tmp', `dist-old-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

mkdirSync(join(root, '.tmp'), { recursive: true });
rmSync(next, { recursive: true, force: true });
try {
  node(tsc, '-p', 'tsconfig.build.json', '--outDir', next);
  node(join(import.meta.dirname, 'build-disposable.mjs'), next);
  node(join(import.meta.dirname, 'build-man.mjs'), next);
  swapIn(next, dist);
} finally {
  rmSync(next, { recursive: true, force: true });
}

/** Moves `built` to `target`, setting aside what is there (another build may swap in between: take its place). */
function swapIn(built, target) {
  for (;;) {
    try {
      renameSync(target, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(built, target);
      break;
    } catch (error) {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  }
}
