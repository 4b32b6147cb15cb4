import type { Command } from '@commander-js/extra-typings';
import { jsonOption, serviceOption } from '../common/options.js';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .option('--name <name>', 'your name')
    .option('--email <email>', 'your email address')
    .option('--password-stdin', 'read the password from stdin')
    .option('--country-code <code>', "two-letter country code, e.g. GB (default: your locale's region)")
    .option('--source <source>', 'sign-up source recorded by the platform', 'cli')
    .option('--source-path <path>', 'sign-up source path recorded by the platform', 'mailclean')
    .addOption(serviceOption('platform'))
    .option('--insecure-storage', 'keep the tokens in the profiles file (mode 0600), not the OS credential store')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nTokens are kept as `mailclean login` keeps them (see its --help).\n\nExample:\n  echo "$PASSWORD" | mailclean register --name Ada --email ada@example.com --password-stdin',
    );
}

export type RegisterFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => (await import('../register.js')).register(opts, f)));
}
