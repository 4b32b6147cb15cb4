import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.js';
import { AuthError } from '../errors.js';
import type { PlatformClient } from '../api/platform.js';
import type { CleaningClient, CleanSignedIn } from '../api/cleaning.js';
import { rememberAllowance } from '../clean/allowance.js';
import { accountKey } from '../clean/identity.js';
import { str, unwrapObject } from '../api/shape.js';

const SANDBOX_NAME = 'Sandbox User';

/** A platform client with a token: the stored or env one, or on the sandbox a local account made now. */
export async function platformSession(ctx: Ctx): Promise<PlatformClient> {
  const client = await ctx.platform();
  if ((await ctx.token('platform')).value) return client;
  if (!(await ctx.usesSandbox())) throw new AuthError('not signed in to the platform');
  const creds = await ctx.credentials();
  const email = creds.email ?? sandboxEmail();
  const signed = await client.register({ name: SANDBOX_NAME, email, password: randomPassword(), source: 'cli', source_path: 'mailclean/auto' });
  await ctx.saveCredentials({ token: signed.token, 'user-id': str(signed.user.id), email, brand: signed.brandId });
  ctx.useToken('platform', signed.token);
  ctx.note(`Created a local sandbox account (${email}) on first use.`);
  return client;
}

/** A cleaning client with a token (the cleaning service is never the built-in sandbox unless given as a URL). */
export async function cleaningSession(ctx: Ctx): Promise<CleaningClient> {
  const client = await ctx.cleaning();
  if ((await ctx.token('clean')).value) return client;
  throw new AuthError('not signed in to the cleaning service', 'run `mailclean login --service clean`, or set MAILCLEAN_CLEAN_TOKEN');
}

/** Stores a cleaning service sign-in, and what its answer said of the allowance (for --dry-run and confirmations). */
export async function keepCleanSignIn(ctx: Ctx, signed: CleanSignedIn, email: string): Promise<void> {
  await ctx.saveSignIn({ 'clean-token': signed.token, email });
  ctx.useToken('clean', signed.token);
  const identity = await ctx.cleanIdentity();
  if (identity) rememberAllowance(ctx.dataDir, accountKey(identity, email, signed.token), signed.allowance, 'signin');
}

/** The signed-in user's id: stored at login, else asked of the service. */
export async function currentUserId(ctx: Ctx, client: PlatformClient): Promise<string> {
  if ((await ctx.token('platform')).source !== 'env') {
    const stored = (await ctx.credentials())['user-id'];
    if (stored) return stored;
  }
  const me = await client.me();
  const id = str(unwrapObject(me.me)?.id);
  if (!id) throw new AuthError('the platform did not say who the token belongs to');
  return id;
}

function sandboxEmail(): string {
  return `sandbox-${randomBytes(4).toString('hex')}@example.com`;
}

function randomPassword(): string {
  return randomBytes(24).toString('base64url');
}
