// Signed-in clients for commands; on the built-in sandbox, a platform account made on first use.

import { createSandboxAccount } from '../../account/sandbox-account.js';
import type { CleaningClient, CleanSignedIn } from '../../api/cleaning.js';
import type { PlatformClient, SignedIn } from '../../api/platform.js';
import { str, unwrapObject } from '../../api/shape.js';
import { markTokenAccepted } from '../../config/accepted-tokens.js';
import { AuthError } from '../../errors.js';
import type { Factory } from '../../factory.js';

export async function platformSession(f: Factory): Promise<PlatformClient> {
  const client = await f.platform();
  const profile = await f.profile();
  if (profile.token('platform').value) return client;
  if (!profile.usesSandbox()) throw new AuthError('not signed in to the platform');
  // Logged out before: that sandbox account's password was never shown, so none is made in its place unasked.
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

/** The cleaning service's client with the token in use (the built-in sandbox is never one unless given as a URL). */
export async function cleaningSession(f: Factory): Promise<CleaningClient> {
  const client = await f.cleaning();
  if ((await f.profile()).token('clean').value) return client;
  throw new AuthError(
    'not signed in to the cleaning service',
    'run `mailclean login --service clean`, or set MAILCLEAN_CLEAN_TOKEN',
  );
}

/** Stores a platform sign-in (login, register): later requests of this process use its token. */
export async function keepPlatformSignIn(f: Factory, signed: SignedIn, email: string) {
  const userId = str(signed.user.id);
  const brand = signed.brandId;
  (await f.profile()).saveSignIn({
    token: signed.token,
    'cdp-token': signed.cdpToken,
    'user-id': userId,
    email,
    brand,
  });
  f.useToken('platform', signed.token);
  return { userId, email, brandId: brand ?? null };
}

/** Stores a cleaning service sign-in, and what its answer said of the allowance (for --dry-run and confirmations). */
export async function keepCleanSignIn(f: Factory, signed: CleanSignedIn, email: string) {
  const profile = await f.profile();
  profile.saveSignIn({ 'clean-token': signed.token, email });
  f.useToken('clean', signed.token);
  const cleanUrl = profile.urls().cleanUrl;
  const outcome = { userId: signed.userId ?? null, email };
  if (!cleanUrl) return outcome;
  markTokenAccepted(f.dataDir, cleanUrl, signed.token, f.io.clock.now());
  // The news is worth keeping, not worth failing a sign-in for (a shared store that is down).
  const remember = async () => {
    const account = await (await f.client()).account();
    (await account.state(signed.userId))?.rememberAllowance(signed.allowance, 'signin');
  };
  await remember().catch(() => undefined);
  return outcome;
}

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
