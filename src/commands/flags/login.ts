import type { Command } from '@commander-js/extra-typings';
import { jsonOption, serviceOption } from '../common/options.js';
import type { Runner } from '../index.js';

function declareFlags(cmd: Command) {
  return cmd
    .option('--email <email>', 'your email address (default: the one last used with this profile)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--with-token', 'read a token from stdin for the one service named by --service')
    .addOption(serviceOption('all'))
    .option('--insecure-storage', 'keep the tokens in the profiles file (mode 0600), not the OS credential store')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
Signs in to the platform (POST /api/login) and the cleaning service (POST /api/v1/auth/signin) with one
password. With --service all, one side failing is a warning when the other succeeds.

Tokens go to the OS credential store (macOS Keychain, Windows Credential Manager, the Secret Service on
Linux) where there is one, and those the profile kept in its file move there; elsewhere they go to the
profiles file (mode 0600) with a note, silently in CI (CI set) or without a session bus. --insecure-storage
(or \`mailclean config set token-storage file\`) keeps them in the file. \`auth status\` says where each is.

Examples:
  mailclean login
  echo "$PASSWORD" | mailclean login --email ada@example.com --password-stdin
  echo "$TOKEN" | mailclean login --with-token --service clean`,
    );
}

export type LoginFlags = ReturnType<ReturnType<typeof declareFlags>['opts']>;

export function define(cmd: Command, run: Runner): void {
  declareFlags(cmd).action(run(async (f, opts) => (await import('../login.js')).login(opts, f)));
}
