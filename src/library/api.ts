// `createClient`, `clean` and `verify`: the functions the package exports (docs/api.md).
import { MailcleanClient } from './client.js';
import { CLEAN_OPTIONS, CLIENT_OPTIONS, checkOptions, VERIFY_OPTIONS } from './option-shapes.js';
import { type ClientSettings, resolveSettings } from './settings.js';
import type {
  CleanInput,
  CleanOptions,
  CleanRun,
  Client,
  ClientOptions,
  VerifyOptions,
  VerifyResult,
} from './types.js';

export function createClient(options: ClientOptions = {}): Client {
  checkOptions(options, CLIENT_OPTIONS, 'createClient');
  return new MailcleanClient(clientSettings(options));
}

/** Cleans a list with a client made for this run from `options`, closed when the run ends. */
export function clean(input: CleanInput, options: ClientOptions & CleanOptions = {}): CleanRun {
  checkOptions(options, { ...CLIENT_OPTIONS, ...CLEAN_OPTIONS }, 'clean');
  const client = new MailcleanClient(clientSettings(options));
  return client.cleanRun(input, options, () => client.close());
}

export async function verify(
  addresses: readonly string[],
  options: ClientOptions & VerifyOptions = {},
): Promise<VerifyResult[]> {
  checkOptions(options, { ...CLIENT_OPTIONS, ...VERIFY_OPTIONS }, 'verify');
  const client = new MailcleanClient(clientSettings(options));
  try {
    return await client.verifyChecked(addresses, options);
  } finally {
    await client.close();
  }
}

/** Settled now when no profile is named (a bad option throws at once); else once the profile is read. */
function clientSettings(options: ClientOptions): ClientSettings | Promise<ClientSettings> {
  if (options.profile === undefined) return resolveSettings(options);
  const env = options.env ?? process.env;
  return import('./profile.js').then(async ({ loadProfile, profileOptions }) =>
    resolveSettings(profileOptions(await loadProfile(options.profile!, env), env, { ...options, env })),
  );
}
