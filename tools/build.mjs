#!/usr/bin/env node
// `npm run build`: dist/ from src/ (tsc), the CLI's bundle beside it (dist/cli/main.js, what bin/mailclean.js runs,
// and dist/chunks/: see bundle.mjs), then the man page and the disposable-domain list. tsc builds in
// its build mode into .tmp/build/ (tsconfig.build.json), kept between builds, so a build of an unchanged tree (npm
// test after npm ci, or the second runtime's npm test) skips the compiler: a fifth of a second, not fifteen. Each
// file is then copied into dist/ beside its old self and renamed over it, and the files the build no longer makes
// are removed: a `mailclean` linked to this clone (`npm install -g .`) keeps working while `npm test` or `npm pack`
// builds, since no file of dist/ is ever missing or partial (deleting dist/ first, or renaming the whole directory
// aside and the new one in, left an instant without it, which a poll every millisecond saw under load).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
// tsconfig.build.json's outDir; tsc's record of what it built lives there too, so removing .tmp/build/ makes the next
// build a whole one.
const staged = join(root, '.tmp', 'build');
// A clone installed without its dev dependencies (`npm install --omit=dev`) cannot build: said in one line.
const resolve = createRequire(import.meta.url).resolve;
const missing = ['typescript/bin/tsc', 'rolldown'].filter((name) => {
  try {
    resolve(name);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  console.error(
    `error: building mailclean needs its dev dependencies (${missing.map((m) => m.split('/')[0]).join(', ')} missing): ` +
      'run `npm ci` (or `npm install`) without --omit=dev in the clone; to install mailclean without building, use the release tarball',
  );
  process.exit(1);
}
const { bundleCli } = await import('./bundle.mjs');
const tsc = resolve('typescript/bin/tsc');
const node = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

node(tsc, '--build', 'tsconfig.build.json');
removeOrphans(staged);
await bundleCli(staged);
node(join(import.meta.dirname, 'build-disposable.mjs'), staged);
node(join(import.meta.dirname, 'build-man.mjs'), staged);
const kept = copyInto(staged, dist);
removeAllBut(dist, kept);

/** Removes the JavaScript of sources deleted since an earlier build: tsc does not remove what it no longer emits. */
function removeOrphans(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeOrphans(path);
    else if (entry.name.endsWith('.js')) {
      const source = join(root, 'src', relative(staged, path).replace(/\.js$/, '.ts'));
      if (!existsSync(source)) rmSync(path);
    }
  }
}

/** Copies every file of `built` to the same place under `target`, each replacing its old self at once. */
function copyInto(built, target, copied = new Set()) {
  mkdirSync(target, { recursive: true });
  copied.add(target);
  for (const entry of readdirSync(built, { withFileTypes: true })) {
    if (entry.name === '.tsbuildinfo') continue;
    const from = join(built, entry.name);
    const to = join(target, entry.name);
    if (entry.isDirectory()) copyInto(from, to, copied);
    else {
      const next = `${to}.${process.pid}.next`;
      copyFileSync(from, next);
      try {
        renameSync(next, to);
      } catch (error) {
        // A directory where the new build has a file: the only case where the old one must go first.
        if (!['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
        rmSync(to, { recursive: true, force: true });
        renameSync(next, to);
      }
      copied.add(to);
    }
  }
  return copied;
}

/** Removes what is under `dir` but not in `kept` (an earlier build's files that this one no longer makes). */
function removeAllBut(dir, kept) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!kept.has(path)) rmSync(path, { recursive: true, force: true });
    else if (entry.isDirectory()) removeAllBut(path, kept);
  }
}
