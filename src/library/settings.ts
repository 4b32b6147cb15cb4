// What a client works with, resolved once from its options (and, when asked, a stored profile of the CLI).
import { checkSharedUrl } from '../clean/state/open-state.js';
import { type Clock, realClock } from '../clock.js';
import { dataDir as platformDataDir } from '../config/paths.js';
import { DEFAULT_RATE, parseRate, type Rate } from '../config/rate.js';
import { validateUrl } from '../config/urls.js';
import { UsageError } from '../errors.js';
import { SecretSet } from '../secrets.js';
import { wholeNumber } from './option-checks.js';
import type { ClientOptions, Env } from './types.js';

export interface ClientSettings {
  cleanUrl?: string;
  token?: string;
  email?: string;
  dataDir: string;
  sharedUrl?: string;
  rate: Rate;
  concurrency: number;
  env: Env;
  /** Masked in every message and file made from a service's answer. */
  secrets: SecretSet;
  debug?: (line: string) => void;
  /** What to do with a service and no token, and when the service refuses it: the CLI names its commands. */
  authHint: string;
  refusedHint: string;
  /** The refusal of a token given with no service: the CLI names the profile that holds it. */
  tokenWithoutService: UsageError;
  sources: SettingSources;
  clock: Clock;
}

/** How messages name the options: a program's option names, or the CLI's flags. */
export interface SettingSources {
  cleanUrl: string;
  shared: string;
  rate: string;
  concurrency: string;
  smtp: string;
  smtpFrom: string;
  dnsServers: string;
  local: string;
  noPrecheck: string;
}

const OPTION_NAMES: SettingSources = {
  cleanUrl: 'cleanUrl',
  shared: 'shared',
  rate: 'rate',
  concurrency: 'concurrency',
  smtp: 'smtp',
  smtpFrom: 'smtpFrom',
  dnsServers: 'dnsServers',
  local: 'local: true',
  noPrecheck: 'precheck: false',
};

export function resolveSettings(
  options: ClientOptions,
  sources: SettingSources = OPTION_NAMES,
  more: Partial<Pick<ClientSettings, 'secrets' | 'authHint' | 'refusedHint' | 'tokenWithoutService' | 'clock'>> = {},
): ClientSettings {
  const env = options.env ?? process.env;
  const secrets = more.secrets ?? new SecretSet();
  secrets.add(options.token);
  return {
    cleanUrl: options.cleanUrl === undefined ? undefined : validateUrl(options.cleanUrl, sources.cleanUrl),
    token: options.token || undefined,
    email: options.email || undefined,
    dataDir: options.dataDir ?? platformDataDir(env),
    sharedUrl: options.shared ? checkSharedUrl(options.shared, sources.shared) : undefined,
    rate:
      typeof options.rate === 'object'
        ? checkedRate(options.rate, sources.rate)
        : parseRate(options.rate ?? DEFAULT_RATE, sources.rate),
    concurrency: wholeNumber(options.concurrency ?? 4, sources.concurrency, 1, 16),
    env,
    secrets,
    debug: options.debug,
    authHint: more.authHint ?? 'give the cleaning token: createClient({ cleanUrl, token })',
    refusedHint: more.refusedHint ?? 'give a token the cleaning service takes: createClient({ cleanUrl, token })',
    tokenWithoutService:
      more.tokenWithoutService ??
      new UsageError('a cleaning token is given without cleanUrl', 'give cleanUrl, or use local: true'),
    sources,
    clock: more.clock ?? realClock,
  };
}

function checkedRate(rate: Rate, source: string): Rate {
  if (!(rate.requests > 0 && Number.isInteger(rate.requests) && rate.windowMs > 0))
    throw new UsageError(`${source}: { requests: ${rate.requests}, windowMs: ${rate.windowMs} } is not a rate`);
  return { requests: rate.requests, windowMs: rate.windowMs };
}
