import type { Command } from '@commander-js/extra-typings';
import { ME_FIELDS } from '../../account/views.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--brand <id>', 'switch the current brand (sent as current_buuid)')
    .addOption(jsonOption())
    .addHelpText('after', `\nJSON fields: ${ME_FIELDS.join(', ')}`)
    .action(run(async (f, opts) => (await import('../me.js')).showMe({ brand: opts.brand, json: opts.json }, f)));
  cmd
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
    )
    .action(
      run(async (f, opts) => {
        const { UPDATE_FIELDS, updateMe, splitName } = await import('../me.js');
        const given = Object.fromEntries(UPDATE_FIELDS.map((field) => [field.key, opts[field.option]]));
        return updateMe({ ...given, ...splitName(opts), json: opts.json }, f);
      }),
    );
}
