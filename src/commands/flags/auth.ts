import { type Command, Option } from '@commander-js/extra-typings';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .command('status')
    .description('show, for each service, whether you are signed in, as whom, and where the token comes from')
    .option('--check', 'also ask the cleaning service whether it takes its token (uses one request of its rate limit)')
    .addOption(jsonOption())
    .action(run(async (f, opts) => (await import('../auth.js')).authStatus(opts, f)));
  cmd
    .command('token')
    .description('print a stored token on stdout, for scripts')
    .addOption(
      new Option('--service <service>', 'which token')
        .choices(['platform', 'clean', 'cdp'] as const)
        .default('platform'),
    )
    .action(run(async (f, opts) => (await import('../auth.js')).authToken(opts, f)));
}
