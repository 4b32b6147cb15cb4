#!/usr/bin/env node
// An older Node fails later in ways that do not say why (no node:sqlite, newer syntax): say it once, up front.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`error: mailclean needs Node.js 22.13 or newer; this is ${process.version}\n`);
  process.exit(1);
}

// A reader that went away (`mailclean ... | head`) is not an error worth a stack trace: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Scripts call this often; it needs none of the modules main.js loads, nor the compile cache (whose set-up
  // loads more of Node than printing the version takes).
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  // Compile cache: every start after the first skips parsing our modules.
  try {
    process.getBuiltinModule('node:module').enableCompileCache?.();
  } catch {
    /* cache directory not writable: run uncached */
  }
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(args);
}
