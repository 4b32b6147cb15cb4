import { runEach } from '../account/each-service.js';
import type { Factory } from '../factory.js';
import {
  checkEndpoints,
  checkedFlag,
  localeRegion,
  namingFlags,
  SIGN_UP_FLAGS,
  signUpInput,
  validateCountryCode,
} from './common/inputs.js';
import { reportOutcomes } from './common/outcomes.js';
import { keepCleanSignIn, keepPlatformSignIn } from './common/sessions.js';
import type { RegisterFlags } from './flags/register.js';

const FLAGS = {
  ...SIGN_UP_FLAGS,
  country_code: '--country-code',
  source: '--source',
  source_path: '--source-path',
};

export async function register(o: RegisterFlags, f: Factory): Promise<number> {
  const service = o.service;
  // Every flag is checked before the first question.
  await checkEndpoints(f, service);
  if (o.insecureStorage) (await f.profile()).keepTokensInFile();
  const countryCode =
    checkedFlag(o.countryCode, '--country-code', validateCountryCode)?.toUpperCase() ?? localeRegion(f.io.env);
  const { name, email, password } = await signUpInput(f, o);
  const platformBody = {
    name,
    email,
    password,
    country_code: countryCode,
    source: o.source,
    source_path: o.sourcePath,
  };

  const outcomes = await runEach(service, {
    platform: async () => {
      const signed = await (await f.platform()).register(platformBody).catch(namingFlags(FLAGS));
      return keepPlatformSignIn(f, signed, email);
    },
    clean: async () => {
      const signed = await (await f.cleaning()).signup({ name, email, password }).catch(namingFlags(FLAGS));
      return keepCleanSignIn(f, signed, email);
    },
  });
  return reportOutcomes(f, o.json, outcomes, 'Registered');
}
