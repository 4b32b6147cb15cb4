#!/usr/bin/env node
// `npm run release`: the package as published, built beside the checkout and packed. The bundle (tools/bundle.mjs)
// replaces dist/, so the package.json written here has no scripts and one optional dependency (the credential
// store's prebuilt binding): installing the tarball builds nothing and runs nothing. `import 'mailclean'` is
// dist/index.js, typed by dist/types/. Needs `npm run build` first (the man page and the disposable-domain list are
// made there). Usage: node tools/release.mjs [--out DIR] (default release/).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundlePackage, root } from './bundle.mjs';
import { emitTypes } from './types.mjs';

const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'release') } } });
const out = resolve(values.out);
const stage = join(out, 'package');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const KEPT = ['name', 'version', 'description', 'keywords', 'homepage', 'bugs', 'repository', 'license', 'type'];
const published = Object.fromEntries(KEPT.filter((key) => key in manifest).map((key) => [key, manifest[key]]));
Object.assign(published, { bin: manifest.bin, man: manifest.man, files: manifest.files, engines: manifest.engines });
// The OS credential store's binding is native (a prebuilt binary per platform, no install script): it cannot be
// bundled, so it is the package's one dependency, optional: where it cannot install, tokens go to the 0600 file.
const KEYRING = '@napi-rs/keyring';
published.optionalDependencies = { [KEYRING]: manifest.dependencies[KEYRING] };
published.types = './dist/types/library/index.d.ts';
published.exports = {
  '.': { types: './dist/types/library/index.d.ts', default: './dist/index.js' },
  './package.json': './package.json',
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);

await bundlePackage(join(stage, 'dist'));
emitTypes(join(stage, 'dist', 'types'));
cpSync(join(root, 'dist', 'verify', 'disposable-domains.txt'), join(stage, 'dist', 'verify', 'disposable-domains.txt'));
for (const path of ['bin', 'docs', 'man', 'README.md', 'LICENSE', 'CHANGELOG.md'])
  cpSync(join(root, path), join(stage, path), { recursive: true });

const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], {
  cwd: stage,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [{ filename, size, unpackedSize }] = JSON.parse(packed);
console.log(`${join(out, filename)}: ${(size / 2 ** 20).toFixed(1)} MB packed, ${(unpackedSize / 2 ** 20).toFixed(1)} MB installed`);
