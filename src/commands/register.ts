import type { Command } from '@commander-js/extra-typings';
import { runEach } from '../account/each-service.js';
import { str } from '../api/shape.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import {
  checkEndpoints,
  checkedFlag,
  jsonOption,
  localeRegion,
  namingFlags,
  PASSWORD_INPUT,
  passwordInput,
  type ServiceChoice,
  serviceOption,
  validateCountryCode,
  validateEmail,
  valueOrPrompt,
} from './common/inputs.js';
import { reportOutcomes } from './common/outcomes.js';
import { keepCleanSignIn } from './common/sessions.js';
import type { Runner } from './index.js';

export function define(cmd: Command, run: Runner): void {
  cmd
    .option('--name <name>', 'your name')
    .option('--email <email>', 'your email address')
    .option('--password-stdin', 'read the password from stdin')
    .option('--country-code <code>', "two-letter country code, e.g. GB (default: your locale's region)")
    .option('--source <source>', 'sign-up source recorded by the platform', 'cli')
    .option('--source-path <path>', 'sign-up source path recorded by the platform', 'mailclean')
    .addOption(serviceOption('platform'))
    .option('--insecure-storage', 'keep the tokens in the profiles file (mode 0600), not the OS credential store')
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\nTokens are kept as `mailclean login` keeps them (see its --help).\n\nExample:\n  echo "$PASSWORD" | mailclean register --name Ada --email ada@example.com --password-stdin',
    )
    .action(run((f, opts) => register(opts, f)));
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

export interface RegisterOptions {
  name?: string;
  email?: string;
  passwordStdin?: boolean;
  countryCode?: string;
  source: string;
  sourcePath: string;
  service: ServiceChoice;
  insecureStorage?: boolean;
  json?: JsonFlag;
}

export async function register(o: RegisterOptions, f: Factory): Promise<number> {
  const service = o.service;
  // Every flag is checked before the first question.
  await checkEndpoints(f, service);
  if (o.insecureStorage) (await f.profile()).keepTokensInFile();
  const givenEmail = checkedFlag(o.email, '--email', validateEmail);
  const countryCode =
    checkedFlag(o.countryCode, '--country-code', validateCountryCode)?.toUpperCase() ?? localeRegion(f.io.env);
  const name = await valueOrPrompt(f, o.name, '--name', 'Name:');
  const email = await valueOrPrompt(f, givenEmail, '--email', 'Email:', { validate: validateEmail });
  const password = await passwordInput(f, o.passwordStdin, { confirm: true });

  const outcomes = await runEach(service, {
    platform: async () => {
      const client = await f.platform();
      const signed = await client
        .register({
          name,
          email,
          password,
          country_code: countryCode,
          source: o.source,
          source_path: o.sourcePath,
        })
        .catch(namingFlags(FLAGS));
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
  return reportOutcomes(f, o.json, outcomes, 'Registered');
}
