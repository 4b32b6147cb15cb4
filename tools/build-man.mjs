#!/usr/bin/env node
// Writes man/mailclean.1 from the command tree built in DIST (run by tools/build.mjs; DIST defaults to dist/): the
// page ships in the package and `npm install -g` puts it where `man mailclean` finds it. Written aside and
// renamed, as dist/ is.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const dist = process.argv[2] ?? join(root, 'dist');
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { commandTree } = await load('main.js');
const { manPage } = await load('help/man.js');
const { processIO } = await load('io/io.js');
const { VERSION } = await load('version.js');

const dir = join(root, 'man');
mkdirSync(dir, { recursive: true });
const aside = join(dir, `.mailclean.1.${process.pid}`);
writeFileSync(aside, manPage(await commandTree(processIO()), VERSION));
renameSync(aside, join(dir, 'mailclean.1'));
