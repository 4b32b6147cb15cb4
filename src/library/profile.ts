// A stored profile of the CLI as a client's options, the environment's overrides read as the CLI reads them.
import { checkSharedUrl } from '../clean/state/open-state.js';
import { configDir } from '../config/paths.js';
import type { Profile, ProfileContext } from '../config/profile.js';
import { parseRate } from '../config/rate.js';
import { givenUrls } from '../config/urls.js';
import type { ClientOptions, Env } from './types.js';

/** The profile `name` as the CLI keeps it, in the configuration directory of `context.env`. */
export async function openProfile(name: string, context: Omit<ProfileContext, 'keyring'>): Promise<Profile> {
  const [{ ProfileStore }, { Profile }, { CredentialStore }, { keyringService }] = await Promise.all([
    import('../config/store.js'),
    import('../config/profile.js'),
    import('../config/keyring.js'),
    import('../config/tokens.js'),
  ]);
  const dir = configDir(context.env);
  const keyring = new CredentialStore(keyringService(dir));
  return new Profile(new ProfileStore(dir, context.warn), name, { ...context, keyring });
}

/** Loads the profile `name` for a program (its `default` may not exist yet: then it holds nothing). */
export async function loadProfile(name: string, env: Env): Promise<Profile> {
  // A library has no stderr of its own: the CLI's warnings are process warnings, its notes are not for programs.
  const warn = (message: string) => process.emitWarning(message, 'MailcleanWarning');
  const profile = await openProfile(name, { env, given: givenUrls({}, env), remember: () => {}, warn, note: () => {} });
  return profile.requireKnown();
}

/** The profile's options under those given (undefined ones aside); its email only with its own token, not another. */
export function profileOptions(profile: Profile, env: Env, given: ClientOptions = {}): ClientOptions {
  const token = profile.token('clean');
  const credentials = profile.credentials();
  const own = token.source === 'profile' || (token.value !== undefined && token.value === credentials['clean-token']);
  const settings = profile.settings();
  const options: ClientOptions = {
    cleanUrl: profile.urls().cleanUrl,
    token: token.value,
    email: own && (given.token ?? token.value) === token.value ? credentials.email : undefined,
  };
  if (settings.rate) options.rate = parseRate(settings.rate, `rate in profile "${profile.name}"`);
  const [shared, source] = env.MAILCLEAN_REDIS_URL
    ? [env.MAILCLEAN_REDIS_URL, 'MAILCLEAN_REDIS_URL']
    : [settings.shared, `shared in profile "${profile.name}"`];
  if (shared) options.shared = checkSharedUrl(shared, source);
  return { ...options, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
}
