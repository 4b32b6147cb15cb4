import type { Command } from '@commander-js/extra-typings';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .option('--name <name>', "the new user's name")
    .option('--email <email>', "the new user's email address")
    .option('--password-stdin', 'read the new password from stdin')
    .option('--internal-token-file <file>', 'file holding the internal access token (else MAILCLEAN_INTERNAL_TOKEN)')
    .addOption(jsonOption())
    .addHelpText('after', '\nCalls POST /api/oem/register. The internal token is never taken as a flag value.');
}

export type OemRegisterFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => (await import('../oem-register.js')).oemRegister(opts, f)));
}
