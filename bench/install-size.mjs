#!/usr/bin/env node
// The installed size of mailclean, before and after the release bundle, with and without exceljs (which the
// workbook issue replaces): the checkout packed and installed with its dependencies (from the npm cache, offline),
// against the release tarball (`npm run release`) installed. Without exceljs: before, the files of the packages
// only exceljs needs are left out; after, the bundle is made again with exceljs left out. Target (issue 32): the
// release under 15 MB installed. Needs a build and the npm cache that `npm ci` filled.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { bundlePackage } from '../tools/bundle.mjs';
import { mb, root } from './lib.mjs';

// Under .tmp/, not bench/tmp/: the installed packages there are not ours to lint.
const work = join(root, '.tmp', 'bench-install-size');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = (...args) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: work });
const install = (prefix, tarball) => {
  npm('install', '-g', '--prefix', join(work, prefix), '--offline', tarball);
  return join(work, prefix, 'lib', 'node_modules', 'mailclean');
};

/** Every file under `dir` with its size. */
function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: join(e.parentPath, e.name), size: statSync(join(e.parentPath, e.name)).size }));
}
const total = (list) => list.reduce((sum, f) => sum + f.size, 0);

// Before: the checkout's own tarball (what a tarball install was until now) and its dependencies.
npm('pack', '--ignore-scripts', '--pack-destination', work, root);
const before = install('before', join(work, `mailclean-${version}.tgz`));
const beforeFiles = files(before);
const packages = new Set(beforeFiles.map((f) => packageOf(before, f.path)).filter(Boolean));
// The packages reachable from mailclean's dependencies but exceljs, resolved as Node resolves them.
const reachable = new Set();
const visit = (dir) => {
  const manifest = JSON.parse(readFileSync(join(before, dir, 'package.json'), 'utf8'));
  for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
    if (dir === '' && name === 'exceljs') continue;
    const found = resolveFrom(dir, name);
    if (found !== undefined && !reachable.has(found)) {
      reachable.add(found);
      visit(found);
    }
  }
};
const resolveFrom = (dir, name) => {
  for (
    let at = dir;
    ;
    at = at.includes(`node_modules${sep}`) ? at.slice(0, at.lastIndexOf(`node_modules${sep}`) - 1) : ''
  ) {
    const candidate = join(at, 'node_modules', name);
    if (packages.has(candidate)) return candidate;
    if (at === '') return undefined;
  }
};
visit('');
const beforeWithout = beforeFiles.filter((f) => {
  const pkg = packageOf(before, f.path);
  return pkg === undefined || reachable.has(pkg);
});

// After: the release tarball, and its bundle made again without exceljs.
execFileSync(process.execPath, [join(root, 'tools', 'release.mjs'), '--out', join(work, 'release')], {
  stdio: 'ignore',
});
const after = install('after', join(work, 'release', `mailclean-${version}.tgz`));
const afterFiles = files(after);
await bundlePackage(join(work, 'without-exceljs'), { external: ['exceljs'] });
const bundleJs = (dir) => total(files(dir).filter((f) => f.path.endsWith('.js')));
const afterWithout = total(afterFiles) - (bundleJs(join(after, 'dist')) - bundleJs(join(work, 'without-exceljs')));

console.log(`installed size of mailclean ${version} (bytes of files; MB = 2^20 bytes)`);
console.log(`before (the checkout's tarball):  ${mb(total(beforeFiles)).padStart(7)} in ${packages.size + 1} packages`);
console.log(
  `  without exceljs:                ${mb(total(beforeWithout)).padStart(7)} in ${reachable.size + 1} packages`,
);
console.log(
  `after (the release):              ${(total(afterFiles) / 2 ** 20).toFixed(1).padStart(4)} MB in 1 package`,
);
console.log(`  without exceljs:                ${(afterWithout / 2 ** 20).toFixed(1).padStart(4)} MB`);
const ok = total(afterFiles) < 15 * 2 ** 20;
const du = (dir) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) * 1024;
console.log(`on disk (du, 4 KiB blocks): before ${mb(du(before))}, after ${(du(after) / 2 ** 20).toFixed(1)} MB`);
console.log(
  `release / before: ${(total(afterFiles) / total(beforeFiles)).toFixed(3)}x; target < 15 MB: ${ok ? 'ok' : 'OVER'}`,
);
process.exitCode = ok ? 0 : 1;

/** The installed package directory a file belongs to, relative to `top` ('' for mailclean's own files). */
function packageOf(top, path) {
  const parts = relative(top, path).split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join(sep);
}
