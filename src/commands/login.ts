import { runEach } from '../account/each-service.js';
import { meView } from '../account/views.js';
import { markTokenAccepted } from '../config/accepted-tokens.js';
import { AuthError, UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { checkCleanToken } from './common/clean-metering.js';
import {
  checkEndpoints,
  namingFlags,
  PASSWORD_INPUT,
  passwordInput,
  secretFromStdin,
  validateEmail,
  valueOrPrompt,
} from './common/inputs.js';
import type { ServiceChoice } from './common/options.js';
import { reportOutcomes } from './common/outcomes.js';
import { keepCleanSignIn, keepPlatformSignIn } from './common/sessions.js';
import type { LoginFlags } from './flags/login.js';

const FLAGS = { email: '--email', password: PASSWORD_INPUT };

export async function login(o: LoginFlags, f: Factory): Promise<number> {
  const service = o.service;
  if (o.insecureStorage) (await f.profile()).keepTokensInFile();
  if (o.withToken) return loginWithToken(f, service, o.json);

  // Every flag is checked before the first question (the URLs as the profile loads).
  await checkEndpoints(f, service);
  const remembered = (await f.profile()).credentials().email;
  const email = await valueOrPrompt(f, o.email ?? (f.io.canPrompt ? undefined : remembered), '--email', 'Email:', {
    default: remembered,
    validate: validateEmail,
  });
  const password = await passwordInput(f, o.passwordStdin);

  const outcomes = await runEach(service, {
    platform: async () => {
      const signed = await (await f.platform()).login(email, password).catch(loginRefused('platform'));
      return keepPlatformSignIn(f, signed, email);
    },
    clean: async () => {
      const signed = await (await f.cleaning()).signin(email, password).catch(loginRefused('cleaning service'));
      return keepCleanSignIn(f, signed, email);
    },
  });
  return reportOutcomes(f, o.json, outcomes, 'Logged in as');
}

/** At login a 401 means the email or password is wrong, not that a token expired; a 422 names the flags. */
function loginRefused(service: string) {
  return (error: unknown): never => {
    if (error instanceof AuthError)
      throw new AuthError(`the ${service} did not accept that email and password`, 'check them and try again');
    return namingFlags(FLAGS)(error);
  };
}

async function loginWithToken(f: Factory, service: ServiceChoice, json: JsonFlag): Promise<number> {
  if (service === 'all') throw new UsageError('--with-token needs --service platform or --service clean');
  const token = await secretFromStdin(f, '--with-token');
  if (service === 'clean') return keepCleanToken(f, token, json);
  const client = await f.platform();
  // Check the token before keeping it, and learn whose it is.
  f.useToken('platform', token);
  const me = meView(await client.me());
  const [userId, email, brandId] = [me.id ?? undefined, me.email ?? undefined, me.brand?.id ?? undefined];
  (await f.profile()).saveSignIn({ token, 'user-id': userId, email, brand: brandId });
  f.io.note(`${f.io.style.green('✓')} Logged in to the platform as ${email ?? userId ?? 'unknown user'}`);
  if (json !== undefined)
    f.io.json({ platform: { ok: true, userId, email, brandId: brandId ?? null } }, json, ['platform']);
  return 0;
}

/** Checked before it is kept: refused, it is not stored; unanswered, it is stored and said to be unverified. */
async function keepCleanToken(f: Factory, token: string, json: JsonFlag): Promise<number> {
  f.useToken('clean', token);
  const check = await checkCleanToken(f);
  if (check.verdict === 'rejected')
    throw new AuthError(
      'the cleaning service did not accept that token; nothing was stored',
      'check the token you piped in',
    );
  const profile = await f.profile();
  profile.saveSignIn({ 'clean-token': token });
  const url = profile.urls().cleanUrl;
  if (check.verdict === 'accepted' && url) markTokenAccepted(f.dataDir, url, token, f.io.clock.now());
  if (check.verdict === 'accepted')
    f.io.note(`${f.io.style.green('✓')} Stored the cleaning service token (the service accepted it)`);
  else f.io.warn(`stored the cleaning service token, not verified: ${check.why}`);
  if (json !== undefined) f.io.json({ clean: { ok: true, verified: check.verdict === 'accepted' } }, json, ['clean']);
  return 0;
}
