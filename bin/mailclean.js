#!/usr/bin/env node
// Compile cache (Node >= 22.1) makes every start after the first skip parsing our modules.
import module from 'node:module';
if (typeof module.enableCompileCache === 'function') {
  try { module.enableCompileCache(); } catch { /* cache dir not writable: run uncached */ }
}
// A reader that went away (`mailclean ... | head`) is not an error worth a stack trace: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));
