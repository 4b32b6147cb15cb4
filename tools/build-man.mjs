#!/usr/bin/env node
// Writes man/mailclean.1 from the built command tree (run by `npm run build`, after tsc): the page ships in the
// package and `npm install -g` puts it where `man mailclean` finds it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const { commandTree } = await import(new URL('dist/main.js', root).href);
const { manPage } = await import(new URL('dist/help/man.js', root).href);
const { processIO } = await import(new URL('dist/io/io.js', root).href);
const { VERSION } = await import(new URL('dist/version.js', root).href);

const dir = fileURLToPath(new URL('man/', root));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}mailclean.1`, manPage(await commandTree(processIO()), VERSION));
