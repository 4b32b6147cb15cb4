import { runEach } from '../account/each-service.js';
import { str } from '../api/shape.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import {
  checkEndpoints,
  checkedFlag,
  localeRegion,
  namingFlags,
  SIGN_UP_FLAGS,
  signUpInput,
  validateCountryCode,
} from './common/inputs.js';
import type { ServiceChoice } from './common/options.js';
import { reportOutcomes } from './common/outcomes.js';
import { keepCleanSignIn } from './common/sessions.js';

const FLAGS = {
  ...SIGN_UP_FLAGS,
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
  const countryCode =
    checkedFlag(o.countryCode, '--country-code', validateCountryCode)?.toUpperCase() ?? localeRegion(f.io.env);
  const { name, email, password } = await signUpInput(f, o);

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
