// Signed-in clients for commands: the profile's token (or the environment's), or on the built-in sandbox an
// account made on first use. (`clean` and `verify` sign in through the library's client: src/library/account.ts.)

import { createSandboxAccount } from '../../account/sandbox-account.js';
import type { CleaningClient, CleanSignedIn } from '../../api/cleaning.js';
import type { PlatformClient } from '../../api/platform.js';
import { str, unwrapObject } from '../../api/shape.js';
import { SharedStateError } from '../../clean/state/account-state.js';
import type { RateLimiter } from '../../clean/state/rate-limiter.js';
import { markTokenAccepted } from '../../config/accepted-tokens.js';
import { DEFAULT_RATE, parseRate } from '../../config/rate.js';
import { AuthError, CliError } from '../../errors.js';
import type { Factory } from '../../factory.js';

export async function platformSession(f: Factory): Promise<PlatformClient> {
  const client = await f.platform();
  const profile = await f.profile();
  if (profile.token('platform').value) return client;
  if (!profile.usesSandbox()) throw new AuthError('not signed in to the platform');
  // An email kept without a token: this profile signed in before and logged out. Its sandbox account's password
  // was never shown, so none is made in its place unasked (registering that email again would be refused).
  if (profile.credentials().email)
    throw new AuthError(
      'not signed in to the platform',
      'run `mailclean login`, or `mailclean register` for a new account',
    );
  const signed = await createSandboxAccount(client);
  profile.saveCredentials({
    token: signed.token,
    'user-id': str(signed.user.id),
    email: signed.email,
    brand: signed.brandId,
  });
  f.useToken('platform', signed.token);
  f.io.note(`Created a local sandbox account (${signed.email}) on first use.`);
  return client;
}

/**
 * The cleaning service is never the built-in sandbox unless given as a URL, so no account is made here. Its first
 * answer is noted as the service taking the token, for `auth status`.
 */
export async function cleaningSession(f: Factory): Promise<CleaningClient> {
  const client = await f.cleaning();
  const profile = await f.profile();
  const token = profile.token('clean').value;
  const url = profile.urls().cleanUrl;
  if (token) {
    let marked = false;
    const clean = client.clean.bind(client);
    client.clean = async (emails, signal) => {
      const records = await clean(emails, signal);
      if (!marked && url) markTokenAccepted(f.dataDir, url, token, f.io.clock.now());
      marked = true;
      return records;
    };
    return client;
  }
  throw new AuthError(
    'not signed in to the cleaning service',
    'run `mailclean login --service clean`, or set MAILCLEAN_CLEAN_TOKEN',
  );
}

/** Stores a cleaning service sign-in, and what its answer said of the allowance (for --dry-run and confirmations). */
export async function keepCleanSignIn(f: Factory, signed: CleanSignedIn, email: string): Promise<void> {
  const profile = await f.profile();
  profile.saveSignIn({ 'clean-token': signed.token, email });
  f.useToken('clean', signed.token);
  const cleanUrl = profile.urls().cleanUrl;
  if (!cleanUrl) return;
  markTokenAccepted(f.dataDir, cleanUrl, signed.token, f.io.clock.now());
  // Remembered under every identity this sign-in shows (the same token from MAILCLEAN_CLEAN_TOKEN later is the
  // same account). The news is worth keeping, not worth failing a sign-in for (a shared store that is down).
  const identity = { cleanUrl, email, token: signed.token, userId: signed.userId };
  const account = await f.accountOf(identity).catch(() => undefined);
  const state = account ? await f.accountState(account).catch(() => undefined) : undefined;
  state?.rememberAllowance(signed.allowance, 'signin');
}

/**
 * The key that names this profile's cleaning account on its service (journals, limiter state, allowance and
 * cache are kept under it), whatever the token's source; undefined with no clean-url or no cleaning token. The
 * profile's email speaks for a token that is the profile's own, also when it comes from MAILCLEAN_CLEAN_TOKEN.
 */
export async function cleaningAccountKey(f: Factory, sharedFlag?: string): Promise<string | undefined> {
  const profile = await f.profile();
  const cleanUrl = profile.urls().cleanUrl;
  const token = profile.token('clean');
  if (!cleanUrl || !token.value) return undefined;
  const credentials = profile.credentials();
  const own = token.source === 'profile' || token.value === credentials['clean-token'];
  return f.accountOf({ cleanUrl, token: token.value, email: own ? credentials.email : undefined }, sharedFlag);
}

/** The signed-in user's id: stored at login, else asked of the service. */
export async function currentUserId(f: Factory, client: PlatformClient): Promise<string> {
  const profile = await f.profile();
  if (profile.token('platform').source !== 'env') {
    const stored = profile.credentials()['user-id'];
    if (stored) return stored;
  }
  const id = str(unwrapObject((await client.me()).me)?.id);
  if (!id) throw new AuthError('the platform did not say who the token belongs to');
  return id;
}

/** What the cleaning service said of its token: taken, refused, or no answer to tell by (and why). */
export type TokenCheck = { verdict: 'accepted' } | { verdict: 'rejected' } | { verdict: 'unknown'; why: string };

/**
 * Asks the cleaning service whether it takes the token now in use. The check may count against the rate limit,
 * so it is booked in this account's limiter like any request; it spends no allowance.
 */
export async function checkCleanToken(f: Factory): Promise<TokenCheck> {
  const key = await cleaningAccountKey(f);
  const rate = (await f.profile()).settings().rate;
  let limiter: RateLimiter | undefined;
  try {
    limiter = key ? (await f.accountState(key)).limiter(parseRate(rate ?? DEFAULT_RATE, 'rate')) : undefined;
  } catch (error) {
    if (error instanceof CliError || error instanceof SharedStateError)
      return { verdict: 'unknown', why: error.message };
    throw error;
  }
  const booking = await limiter?.acquire(f.io.signals.stop);
  try {
    return { verdict: await (await f.cleaning()).tokenCheck(f.io.signals.stop) };
  } catch (error) {
    if (error instanceof CliError) return { verdict: 'unknown', why: error.message };
    throw error;
  } finally {
    if (booking) limiter!.release(booking);
  }
}
