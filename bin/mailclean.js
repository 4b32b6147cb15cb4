#!/usr/bin/env node
// Compile cache (Node >= 22.1) makes every start after the first skip parsing our modules.
import module from 'node:module';
if (typeof module.enableCompileCache === 'function') {
  try { module.enableCompileCache(); } catch { /* cache dir not writable: run uncached */ }
}
const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));
