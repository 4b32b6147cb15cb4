// The library API's type declarations for the published package: tsc declares the public entry
// (src/library/index.ts) and what it reaches, then only the files its declarations import are kept (tsc declares
// every module of the program, the lazily loaded implementation included). A declaration importing a package the
// published package does not hold would fail its users' type check: that stops the release.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { root } from './bundle.mjs';

const ENTRY = 'library/index.d.ts';
/** Imports a declaration may keep: Node's own modules (its users have @types/node). */
const ALLOWED = /^node:/;

/** Writes `outDir`/library/index.d.ts and the declarations it imports; returns how many files. */
export function emitTypes(outDir) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const all = join(root, '.tmp', `types-${process.pid}`);
  rmSync(all, { recursive: true, force: true });
  try {
    const args = [tsc, '-p', 'tsconfig.types.json', '--outDir', all];
    execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    const kept = reachable(all);
    for (const file of kept) {
      mkdirSync(dirname(join(outDir, file)), { recursive: true });
      cpSync(join(all, file), join(outDir, file));
    }
    return kept.size;
  } finally {
    rmSync(all, { recursive: true, force: true });
  }
}

function reachable(dir) {
  const seen = new Set();
  const todo = [ENTRY];
  while (todo.length > 0) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [, spec] of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)) {
      if (spec.startsWith('.')) todo.push(normalize(join(dirname(file), spec.replace(/\.js$/, '.d.ts'))));
      else if (!ALLOWED.test(spec)) throw new Error(`${file}: the declarations import ${spec}, which the package does not hold`);
    }
  }
  return seen;
}
