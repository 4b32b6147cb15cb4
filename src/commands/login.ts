import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Factory } from '../factory.js';
import { AuthError, UsageError } from '../errors.js';
import { str, unwrapObject } from '../api/shape.js';
import { jsonOption, namingFlags, PASSWORD_INPUT, passwordInput, secretFromStdin, serviceOption, validateEmail, valueOrPrompt, type ServiceChoice } from './shared/inputs.js';
import { runEach } from '../account/each-service.js';
import { reportOutcomes } from './shared/outcomes.js';
import { keepCleanSignIn } from './shared/sessions.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--email <email>', 'your email address (default: the one last used with this profile)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--with-token', 'read a token from stdin for the one service named by --service')
    .addOption(serviceOption('all'))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      `
Signs in to the platform (POST /api/login) and the cleaning service (POST /api/v1/auth/signin) with one
password. With --service all, one side failing is a warning when the other succeeds.

Examples:
  mailclean login
  echo "$PASSWORD" | mailclean login --email ada@example.com --password-stdin
  echo "$TOKEN" | mailclean login --with-token --service clean`,
    )
    .action(run(login));
}

const FLAGS = { email: '--email', password: PASSWORD_INPUT };

async function login(f: Factory, opts: Record<string, unknown>): Promise<number> {
  const service = opts.service as ServiceChoice;
  if (opts.withToken) return loginWithToken(f, service, opts.json as string | boolean | undefined);

  const remembered = ((await f.profile()).credentials()).email;
  const email = await valueOrPrompt(f, opts.email ?? (f.io.canPrompt ? undefined : remembered), '--email', 'Email:', {
    default: remembered,
    validate: validateEmail,
  });
  const password = await passwordInput(f, opts.passwordStdin);

  const outcomes = await runEach(service, {
    platform: async () => {
      const client = await f.platform();
      const signed = await client.login(email, password).catch(renameAuthFailure('platform')).catch(namingFlags(FLAGS));
      const userId = str(signed.user.id);
      (await f.profile()).saveSignIn({ token: signed.token, 'cdp-token': signed.cdpToken, 'user-id': userId, email, brand: signed.brandId });
      f.useToken('platform', signed.token);
      return { userId, email, brandId: signed.brandId ?? null };
    },
    clean: async () => {
      const client = await f.cleaning();
      const signed = await client.signin(email, password).catch(renameAuthFailure('cleaning service')).catch(namingFlags(FLAGS));
      await keepCleanSignIn(f, signed, email);
      return { userId: signed.userId ?? null, email };
    },
  });
  return reportOutcomes(f, opts.json as string | boolean | undefined, outcomes, 'Logged in as');
}

/** At login a 401 means the email or password is wrong, not that a token expired. */
function renameAuthFailure(service: string) {
  return (error: unknown): never => {
    if (error instanceof AuthError) throw new AuthError(`the ${service} did not accept that email and password`, 'check them and try again');
    throw error;
  };
}

async function loginWithToken(f: Factory, service: ServiceChoice, json: string | boolean | undefined): Promise<number> {
  if (service === 'all') throw new UsageError('--with-token needs --service platform or --service clean');
  const token = await secretFromStdin(f, '--with-token');
  if (service === 'clean') {
    // The cleaning service has no route that checks a token without spending allowance, so it is stored as given.
    (await f.profile()).saveSignIn({ 'clean-token': token });
    f.io.note(`${f.io.style.green('✓')} Stored the cleaning service token`);
    if (json !== undefined) f.io.json({ clean: { ok: true, verified: false } }, json, ['clean']);
    return 0;
  }
  const client = await f.platform();
  // Check the token before keeping it, and learn whose it is.
  f.useToken('platform', token);
  const me = unwrapObject((await client.me()).me);
  const userId = str(me?.id);
  const email = str(me?.email);
  (await f.profile()).saveSignIn({ token, 'user-id': userId, email });
  f.io.note(`${f.io.style.green('✓')} Logged in to the platform as ${email ?? userId ?? 'unknown user'}`);
  if (json !== undefined) f.io.json({ platform: { ok: true, userId, email } }, json, ['platform']);
  return 0;
}
