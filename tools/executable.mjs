#!/usr/bin/env node
// `npm run executable`: mailclean as one file that needs no Node on the machine (Node's single executable
// applications): the sources bundled as one CommonJS script, a blob made of it (with V8's code cache and the
// disposable-domain list as an asset), injected by postject into a copy of the Node running this script. Needs
// `npm run build` first. Linux x64 is what CI builds and runs; the same steps work on the platform that runs them.
// Usage: node tools/executable.mjs [--out DIR] (default release/) -> DIR/mailclean-<platform>-<arch>
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inject } from 'postject';
import { bundleExecutable, root } from './bundle.mjs';

const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'release') } } });
const out = resolve(values.out);
const work = join(out, 'executable');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const script = join(work, 'mailclean.cjs');
await bundleExecutable(script);
const config = {
  main: script,
  output: join(work, 'mailclean.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets: { 'disposable-domains.txt': join(root, 'dist', 'verify', 'disposable-domains.txt') },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit' });

const platform = process.platform === 'win32' ? 'windows' : process.platform;
const target = join(out, `mailclean-${platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`);
copyFileSync(process.execPath, target);
chmodSync(target, 0o755);
const blob = readFileSync(config.output);
await inject(target, 'NODE_SEA_BLOB', blob, {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
});
console.log(target);
