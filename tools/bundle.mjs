// The CLI as bundles (rolldown): mailclean and its runtime dependencies in a few ES modules, not the 190 files of
// tsc's dist/ a service clean loaded, whose resolving and loading one by one cost about 90 ms of the main thread
// before its first request. `dist/cli/main.js` is what bin/mailclean.js imports, in the checkout (npm run build
// bundles it beside tsc's dist/, unminified) and in the release (whose dist/ is only the bundle, minified, with
// `dist/index.js` the library API, `import 'mailclean'`, sharing chunks with the CLI: neither loads the other's
// entry). Commands stay split into chunks loaded when they run, in dist/chunks/: two levels below the package, as
// disposable.ts expects. The single executable takes the same sources as one CommonJS file (what Node's single
// executable applications run). The release and the executable carry the licences of what they bundle.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { build } from 'rolldown';

export const root = join(import.meta.dirname, '..');
// The modules every command needs live in the CLI's entry, and the chunks import them from it: rolldown may add to an
// entry's exports ('allow-extension'). Kept apart, they were 5 more files to resolve for each command; Node resolves a
// file by the real path of its package, so an install at a 63-character path answered `clean --help` in 1.13x a bare
// commander program's time, against 1.01x with them in the entry.
const common = { cwd: root, platform: 'node', logLevel: 'warn', preserveEntrySignatures: 'allow-extension' };
const smaller = { minify: true, comments: { legal: false } };

/** The CLI's entry, as bin/mailclean.js imports it from dist/. */
const CLI = { 'cli/main': 'src/main.ts' };
const split = { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' };

/**
 * Writes the package's dist/: the CLI's and the library's entries and their chunks. `external` leaves packages out
 * (bench/install-size.mjs measures the bundle without one).
 */
export async function bundlePackage(outDir, { external = [] } = {}) {
  const { output } = await build({
    ...common,
    external,
    input: { ...CLI, index: 'src/library/index.ts' },
    output: { ...smaller, ...split, dir: outDir },
  });
  writeLicences(output, join(outDir, 'THIRD-PARTY-LICENSES.txt'));
}

/** Writes the checkout's CLI bundle into `outDir` (tsc's output directory): unminified, its names as in src/. */
export async function bundleCli(outDir) {
  await build({ ...common, input: CLI, output: { ...split, dir: outDir } });
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
