// Loaded with `node --import`: records every module the process resolves (imported or required, native addons
// included) and writes their URLs to MODULE_PROBE_OUT as it exits.
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    seen.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(process.env.MODULE_PROBE_OUT, [...seen].join('\n')));
