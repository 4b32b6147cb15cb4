// The single executable's entry (tools/executable.mjs bundles it as one CommonJS file, which has no top-level
// await): what bin/mailclean.js does for the npm package, less the Node version check (the executable carries its
// own Node) and the compile cache (the executable carries its code cache).
import { main, stopQuietlyWhenReaderGoes } from './main.js';

stopQuietlyWhenReaderGoes();
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
