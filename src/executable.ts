// The single executable's entry (tools/executable.mjs bundles it as one CommonJS file, which has no top-level
// await): what bin/mailclean.js does for the npm package, less the Node version check (the executable carries its
// own Node) and the compile cache (the executable carries its code cache).
import { main } from './main.js';

// A reader that went away (`mailclean ... | head`) is not an error worth a stack trace: stop quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
