import type { Command } from '@commander-js/extra-typings';
import { ME_FIELDS } from '../../account/views.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => (await import('../me.js')).showMe(opts, f)));
  declareUpdateFlags(cmd).action(run(async (f, opts) => (await import('../me.js')).updateMe(opts, f)));
}

function declareFlags(cmd: Command) {
  return cmd
    .option('--brand <id>', 'switch the current brand (sent as current_buuid)')
    .addOption(jsonOption())
    .addHelpText('after', `\nJSON fields: ${ME_FIELDS.join(', ')}`);
}

function declareUpdateFlags(cmd: Command) {
  return cmd
    .command('update')
    .description('update your name, phone and country code (values not given are kept)')
    .option('--name <name>', 'your name, as `register` takes it: its first word the first name, the rest the last')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--phone <phone>', 'phone number')
    .option('--country-code <code>', 'two-letter country code, e.g. US')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nThe service needs all four fields, none empty: one your profile has empty (registration leaves\nthe last name empty) must be given, else nothing is sent.',
    );
}

export type MeFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;
export type MeUpdateFlags = ReturnType<ReturnType<typeof declareUpdateFlags>['opts']>;
