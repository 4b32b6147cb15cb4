#!/usr/bin/env node
// Writes DIST/verify/disposable-domains.txt from mailchecker's list (run by tools/build.mjs; DIST defaults to
// dist/): its version on the first line, then the domains, lower-cased and sorted, one a line. Loading that takes
// about 20 ms where requiring mailchecker (a megabyte of JavaScript building a Set) takes about 100 ms of every run
// that checks addresses.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dist = process.argv[2] ?? join(import.meta.dirname, '..', 'dist');
const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(require.resolve('mailchecker/package.json'), 'utf8'));
const domains = [...new Set([...require('mailchecker/platform/node').blacklist()].map((d) => d.toLowerCase()))].sort();
const text = `mailchecker ${version}\n${domains.join('\n')}\n`;
writeFileSync(join(dist, 'verify', 'disposable-domains.txt'), text);
