#!/usr/bin/env node
// CommonJS (bin/package.json says so): `--version` then needs none of Node's ES module loader, which starting an ES
// module costs before its first line runs (about 15% of `node -e 0` on Node 22). The rest of mailclean is ESM,
// imported below.

// An older Node fails later in ways that do not say why (no node:sqlite, newer syntax): say it once, up front.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`error: mailclean needs Node.js 22.13 or newer; this is ${process.version}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) printVersion();
else {
  // A reader that went away (`mailclean ... | head`) is not an error worth a stack trace: stop quietly.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  // Compile cache: every start after the first skips parsing our modules.
  try {
    process.getBuiltinModule('node:module').enableCompileCache?.();
  } catch {
    /* cache directory not writable: run uncached */
  }
  // A failure here is a bug: left unhandled, Node prints it and exits 1, as the ES module's top-level await did. But a
  // clone that was never built (an install without dev dependencies) is told so in one line.
  import('../dist/cli/main.js').then(
    async ({ main }) => {
      process.exitCode = await main(args);
    },
    (error) => {
      if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist')) throw error;
      process.stderr.write(
        `error: mailclean is not built here (${require('node:path').join(__dirname, '..', 'dist')} is missing or partial): run \`npm ci\` in the clone (it builds dist/, with the dev dependencies)\n`,
      );
      process.exitCode = 1;
    },
  );
}

/**
 * Scripts call this often. The version is package.json's; it is written to the descriptor directly, as making
 * process.stdout (a stream, and for a pipe a socket) loads more of Node than printing the version takes.
 */
function printVersion() {
  const { readFileSync, writeSync } = require('node:fs');
  const line = `${JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`;
  try {
    writeSync(1, line);
  } catch (error) {
    // The reader went away: nothing to say. Anything else (a full non-blocking pipe) goes through the stream.
    if (error.code !== 'EPIPE') process.stdout.write(line);
  }
}
