// What a client works with, resolved once from its options (and, when asked, a stored profile of the CLI).
import { checkSharedUrl } from '../clean/state/open-state.js';
import { type Clock, realClock } from '../clock.js';
import { dataDir as platformDataDir } from '../config/paths.js';
import { checkRate, DEFAULT_RATE, parseRate } from '../config/rate.js';
import { validateUrl } from '../config/urls.js';
import { UsageError } from '../errors.js';
import { SecretSet } from '../secrets.js';
import { type Naming, optionName, wholeNumber } from './option-checks.js';
import type { ClientOptions } from './types.js';

export type ClientSettings = ReturnType<typeof resolveSettings>;

export function resolveSettings(
  options: ClientOptions,
  naming: Naming = optionName,
  more: {
    secrets?: SecretSet;
    authHint?: string;
    refusedHint?: string;
    tokenWithoutService?: UsageError;
    clock?: Clock;
  } = {},
) {
  const env = options.env ?? process.env;
  const secrets = more.secrets ?? new SecretSet();
  secrets.add(options.token);
  return {
    cleanUrl: options.cleanUrl === undefined ? undefined : validateUrl(options.cleanUrl, naming('cleanUrl')),
    token: options.token || undefined,
    email: options.email || undefined,
    dataDir: options.dataDir ?? platformDataDir(env),
    sharedUrl: options.shared ? checkSharedUrl(options.shared, naming('shared')) : undefined,
    rate:
      typeof options.rate === 'object'
        ? checkRate(options.rate, naming('rate'))
        : parseRate(options.rate ?? DEFAULT_RATE, naming('rate')),
    concurrency: wholeNumber(options.concurrency ?? 4, naming('concurrency'), 1, 16),
    env,
    /** Masked in every message and file made from a service's answer. */
    secrets,
    debug: options.debug,
    /** What to do with a service and no token, and when the service refuses it: the CLI names its commands. */
    authHint: more.authHint ?? 'give the cleaning token: createClient({ cleanUrl, token })',
    refusedHint: more.refusedHint ?? 'give a token the cleaning service takes: createClient({ cleanUrl, token })',
    /** The refusal of a token given with no service: the CLI names the profile that holds it. */
    tokenWithoutService:
      more.tokenWithoutService ??
      new UsageError('a cleaning token is given without cleanUrl', 'give cleanUrl, or use local: true'),
    naming,
    clock: more.clock ?? realClock,
  };
}
