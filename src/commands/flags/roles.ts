import type { Command } from '@commander-js/extra-typings';
import { ROLE_FIELDS } from '../../account/views.js';
import { PERMISSION_FIELDS } from '../common/json-fields.js';
import { jsonOption } from '../common/options.js';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .option('--user <id>', 'whose roles (default: you)')
    .option('--role <name>', 'only this role')
    .option('--permissions', 'list permissions by category, with the roles that hold each')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `\nJSON fields: ${ROLE_FIELDS.join(', ')}\nWith --permissions: ${PERMISSION_FIELDS.join(', ')}`,
    );
}

export type RolesFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => (await import('../roles.js')).showRoles(opts, f)));
}
