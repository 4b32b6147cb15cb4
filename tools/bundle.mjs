// The release bundle: mailclean and every runtime dependency in one tree of ES modules (rolldown), so the package
// installs nothing and builds nothing. Commands stay split into chunks loaded when they run; `dist/main.js` keeps
// the name bin/mailclean.js imports, and `dist/index.js` is the library API
// (`import 'mailclean'`), sharing chunks with the CLI: neither loads the other's entry. The single executable takes
// the same sources as one CommonJS file (what Node's single executable applications run). Both carry the licences of what they bundle.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { build } from 'rolldown';

export const root = join(import.meta.dirname, '..');
const common = { cwd: root, platform: 'node', logLevel: 'warn' };
const smaller = { minify: true, comments: { legal: false } };

/**
 * Writes the package's dist/ (entries, then chunks/ two levels below the package, as disposable.ts expects).
 * `external` leaves packages out (bench/install-size.mjs measures the bundle without one).
 */
export async function bundlePackage(outDir, { external = [] } = {}) {
  const { output } = await build({
    ...common,
    external,
    input: { main: 'src/main.ts', index: 'src/library/index.ts' },
    output: {
      ...smaller,
      dir: outDir,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
    },
  });
  writeLicences(output, join(outDir, 'THIRD-PARTY-LICENSES.txt'));
}

/** Writes one CommonJS file holding everything, every dynamic import inlined; its licences beside it. */
export async function bundleExecutable(outFile) {
  const { output } = await build({
    ...common,
    input: 'src/executable.ts',
    output: { ...smaller, file: outFile, format: 'cjs', codeSplitting: false },
  });
  writeLicences(output, join(dirname(outFile), 'THIRD-PARTY-LICENSES.txt'));
}

/** The name, version and licence text of each package a module of the bundle came from. */
function writeLicences(output, file) {
  const packages = new Map();
  for (const chunk of output) {
    for (const id of chunk.moduleIds ?? []) {
      const at = id.lastIndexOf(`${sep}node_modules${sep}`);
      if (at < 0) continue;
      const rest = id.slice(at + 14).split(sep);
      const dir = id.slice(0, at + 14) + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join(sep);
      if (!packages.has(dir)) packages.set(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    }
  }
  const sections = [...packages].map(([dir, { name, version, license }]) => {
    const text = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const body = text ? readFileSync(join(dir, text), 'utf8').trim() : `${license ?? 'no licence stated'}`;
    return `${name}@${version} (${license})\n\n${body}`;
  });
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  writeFileSync(file, `mailclean bundles these packages:${rule}${sections.sort().join(rule)}\n`);
}
