// Loaded with --import by tools/walk.mjs: records every module resolution (importer and imported) as it happens.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
const log = ${JSON.stringify(process.env.MAILCLEAN_WALK_LOG ?? '/dev/null')};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, JSON.stringify({ parent: context.parentURL, url: resolved.url }) + '\\n');
  return resolved;
}`)}`,
);
