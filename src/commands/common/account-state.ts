// The state of this profile's cleaning account, for the commands that read it: `cache`, `runs`, `allowance`.
import type { AccountState } from '../../clean/state/account-state.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';

/** `what` names what is read, for messages: "cache", "run history". */
export async function cleaningAccountState(
  f: Factory,
  shared: string | undefined,
  what: string,
): Promise<AccountState> {
  const state = await stateIfAny(f, shared, what);
  if (state) return state;
  throw new UsageError(
    `profile "${f.profileName}" has no cleaning account (a clean-url and a cleaning token): the ${what} is kept per account`,
    'run `mailclean login --clean-url URL`',
  );
}

/** For a command that only shows it: no account yet is an empty view, not a failure (a terminal is told why). */
export async function shownAccountState(
  f: Factory,
  shared: string | undefined,
  what: string,
): Promise<AccountState | undefined> {
  const state = await stateIfAny(f, shared, what);
  if (!state && f.io.isStdoutTTY)
    f.io.note(
      `Profile "${f.profileName}" has no cleaning account yet, so no ${what}: \`mailclean login --clean-url URL\` signs in to one.`,
    );
  return state;
}

async function stateIfAny(f: Factory, shared: string | undefined, what: string): Promise<AccountState | undefined> {
  (await f.profile()).requireKnown();
  const account = await (await f.client({ shared })).account();
  return account.stateOr((error) => {
    throw new CliError(
      `${error.message}: the shared ${what} cannot be read`,
      ExitCode.error,
      'check --shared (or MAILCLEAN_REDIS_URL)',
    );
  });
}
