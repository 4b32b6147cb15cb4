#!/usr/bin/env node
// `npm run build`: dist/ from src/ (tsc), then the man page and the disposable-domain list from it, all made in
// .tmp/ and moved into dist/ a file at a time, each by a rename over the old one, then the files the new build no
// longer has removed. A `mailclean` linked to this clone (`npm install -g .`) keeps working while `npm test` or
// `npm pack` builds: no file of dist/ is ever missing or partial (renaming the whole directory aside and the new
// one in left an instant without dist/, which a poll every millisecond saw under load).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const next = join(root, '.tmp', `dist-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

mkdirSync(join(root, '.tmp'), { recursive: true });
rmSync(next, { recursive: true, force: true });
try {
  node(tsc, '-p', 'tsconfig.build.json', '--outDir', next);
  node(join(import.meta.dirname, 'build-disposable.mjs'), next);
  node(join(import.meta.dirname, 'build-man.mjs'), next);
  const kept = moveInto(next, dist);
  removeAllBut(dist, kept);
} finally {
  rmSync(next, { recursive: true, force: true });
}

/** Moves every file of `built` to the same place under `target`, each replacing its old self at once. */
function moveInto(built, target, moved = new Set()) {
  mkdirSync(target, { recursive: true });
  moved.add(target);
  for (const entry of readdirSync(built, { withFileTypes: true })) {
    const from = join(built, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) moveInto(from, to, moved);
    else {
      try {
        renameSync(from, to);
      } catch (error) {
        // A directory where the new build has a file: the only case where the old one must go first.
        if (!['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
        rmSync(to, { recursive: true, force: true });
        renameSync(from, to);
      }
      moved.add(to);
    }
  }
  return moved;
}

/** Removes what is under `dir` but not in `kept` (an earlier build's files that this one no longer makes). */
function removeAllBut(dir, kept) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!kept.has(path)) rmSync(path, { recursive: true, force: true });
    else if (entry.isDirectory()) removeAllBut(path, kept);
  }
}
