import type { Command } from 'commander';
import type { Runner } from './index.js';
import type { Factory } from '../factory.js';
import { str } from '../api/shape.js';
import { jsonOption, localeRegion, namingFlags, PASSWORD_INPUT, passwordInput, serviceOption, validateEmail, valueOrPrompt, type ServiceChoice } from './shared/inputs.js';
import { runEach } from '../account/each-service.js';
import { reportOutcomes } from './shared/outcomes.js';
import { keepCleanSignIn } from './shared/sessions.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--name <name>', 'your name')
    .option('--email <email>', 'your email address')
    .option('--password-stdin', 'read the password from stdin')
    .option('--country-code <code>', "country code (default: your locale's region)")
    .option('--source <source>', 'sign-up source recorded by the platform', 'cli')
    .option('--source-path <path>', 'sign-up source path recorded by the platform', 'mailclean')
    .addOption(serviceOption('platform'))
    .addOption(jsonOption())
    .addHelpText('after', '\nExample:\n  echo "$PASSWORD" | mailclean register --name Ada --email ada@example.com --password-stdin')
    .action(run(register));
}

/** Body fields of both sign-up routes, by the flag or input each comes from. */
const FLAGS = {
  name: '--name',
  email: '--email',
  password: PASSWORD_INPUT,
  country_code: '--country-code',
  source: '--source',
  source_path: '--source-path',
};

async function register(f: Factory, opts: Record<string, unknown>): Promise<number> {
  const service = opts.service as ServiceChoice;
  const name = await valueOrPrompt(f, opts.name, '--name', 'Name:');
  const email = await valueOrPrompt(f, opts.email, '--email', 'Email:', { validate: validateEmail });
  const password = await passwordInput(f, opts.passwordStdin, { confirm: true });
  const countryCode = (opts.countryCode as string | undefined) ?? localeRegion(f.io.env);

  const outcomes = await runEach(service, {
    platform: async () => {
      const client = await f.platform();
      const signed = await client.register({
        name,
        email,
        password,
        country_code: countryCode,
        source: opts.source as string,
        source_path: opts.sourcePath as string,
      }).catch(namingFlags(FLAGS));
      const userId = str(signed.user.id);
      (await f.profile()).saveSignIn({ token: signed.token, 'user-id': userId, email, brand: signed.brandId });
      f.useToken('platform', signed.token);
      return { userId, email, brandId: signed.brandId ?? null };
    },
    clean: async () => {
      const client = await f.cleaning();
      const signed = await client.signup({ name, email, password }).catch(namingFlags(FLAGS));
      await keepCleanSignIn(f, signed, email);
      return { userId: signed.userId ?? null, email };
    },
  });
  return reportOutcomes(f, opts.json as string | boolean | undefined, outcomes, 'Registered');
}
