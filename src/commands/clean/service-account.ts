// Who is cleaning, on which service, at which rate, and where the account's state lives.
import type { AccountState, KnownAllowance } from '../../clean/state/account-state.js';
import { SharedStateError } from '../../clean/state/account-state.js';
import { DEFAULT_RATE, parseRate, type Rate } from '../../config/rate.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { cleaningAccountKey } from '../common/sessions.js';
import type { CleanOptions } from './clean.js';

/** Who is cleaning, on which service, at which rate: what every step of a run needs to know. */
export interface Account {
  rate: Rate;
  /** The account's journals, limiter, cache and allowance; undefined when not signed in (dry run). */
  state?: AccountState;
  journalFile?: string;
  allowance?: KnownAllowance;
}

export async function identify(f: Factory, o: CleanOptions, fingerprint: string): Promise<Account> {
  const profile = await f.profile();
  const settings = profile.settings();
  const rate =
    o.rate ?? parseRate(settings.rate ?? DEFAULT_RATE, settings.rate ? `rate in profile "${f.profileName}"` : 'rate');
  const key = await cleaningAccountKey(f);
  if (!key) return { rate };
  const state = await f.accountState(key, o.shared).catch((error: unknown) => {
    if (error instanceof SharedStateError)
      throw new CliError(
        `${error.message}: nothing was sent`,
        ExitCode.error,
        'check --shared (or MAILCLEAN_REDIS_URL), or run without it to use this machine only',
      );
    throw error;
  });
  return { rate, state, journalFile: state.journalFile(fingerprint), allowance: state.knownAllowance() };
}
