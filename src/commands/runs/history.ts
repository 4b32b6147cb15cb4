// One run of this profile's cleaning account's run history, by its ID.
import type { AccountState, LoggedRun } from '../../clean/state/account-state.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';

/** The run with this id, or the one run whose id starts with it (four characters at least). */
export async function findRun(state: AccountState, id: string): Promise<LoggedRun> {
  const runs = await state.runs();
  const exact = runs.find((run) => run.id === id);
  const matching = exact ? [exact] : id.length >= 4 ? runs.filter((run) => run.id.startsWith(id)) : [];
  if (matching.length > 1) throw new UsageError(`"${id}" names ${matching.length} runs: give more of its ID`);
  if (matching.length === 0)
    throw new CliError(
      `no run "${id}" in this account's run history`,
      ExitCode.error,
      state.shared ? '`mailclean runs` lists them' : "`mailclean runs` lists them (another machine's: with --shared)",
    );
  return matching[0]!;
}
