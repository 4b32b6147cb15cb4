import type { Command } from '@commander-js/extra-typings';
import { ALLOWANCE_FIELDS } from '../common/json-fields.js';
import { jsonOption, sharedOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .addOption(sharedOption('also count what every runner sharing the account spent'))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
Nothing is sent: this is what mailclean learned from the service's answers (a sign-in, a refusal, the runs
since), and what it counted while spending. \`clean --dry-run\` shows the same figure before a run.

JSON fields: ${ALLOWANCE_FIELDS.join(', ')}`,
    )
    .action(run(async (f, opts) => (await import('../allowance.js')).allowance(opts, f)));
}
