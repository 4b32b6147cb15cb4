import type { Command } from '@commander-js/extra-typings';
import { serviceOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .addOption(serviceOption('all'))
    .addHelpText(
      'after',
      '\nForgets the stored tokens of this profile (in the OS credential store or the file). Tokens given by MAILCLEAN_TOKEN or\nMAILCLEAN_CLEAN_TOKEN still apply.',
    )
    .action(run(async (f, opts) => (await import('../logout.js')).logout({ service: opts.service }, f)));
}
