// The single executable's entry (bundled as CommonJS, without top-level await): bin/mailclean.js without the
// Node version check and compile cache, which the executable carries itself.
import { main, stopQuietlyWhenReaderGoes } from './main.js';

stopQuietlyWhenReaderGoes();
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
