// Who decides a run's addresses: the cleaning service when the client has one (and the run is not `local`), else the
// built-in engine; each built with what it needs (the account's state, a signed-in client, the rate, the precheck).
import type { EngineSettings } from '../clean/check/engine/engine-settings.js';
import type { Checker } from '../clean/run/checker.js';
import { type AccountState, SharedStateError } from '../clean/state/account-state.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { Account } from './account.js';
import type { EngineRequest, Env } from './types.js';

/** How a run checks, besides the client's settings. */
export interface CheckChoice {
  /** The built-in engine, even when the client has a service. */
  local: boolean;
  /** With the service: the engine decides first what it can for free (DNS, lists), and that is not sent. */
  precheck: boolean;
  /** The engine's settings (for `local`, and the precheck's DNS). */
  engine: EngineSettings;
  /** Send at most this many addresses. */
  maxSpend?: number;
  /** Count only: nothing is sent or checked. */
  dryRun: boolean;
}

export async function buildChecker(account: Account, choice: CheckChoice, warn: (message: string) => void) {
  const { cleanUrl, token } = account.settings;
  if (cleanUrl !== undefined && !choice.local) return serviceChecker(account, cleanUrl, choice);
  if (token !== undefined && cleanUrl === undefined)
    throw new UsageError('a cleaning token is given without cleanUrl', 'give cleanUrl, or use local: true');
  const { EngineChecker } = await import('../clean/check/engine/engine-checker.js');
  // With a service, `local` keeps the answers the service already gave (this list's journal, the cache).
  const key = await account.key();
  const state = key ? await stateOrWarn(account, key, warn) : undefined;
  return EngineChecker.start(choice.engine, {
    dryRun: choice.dryRun,
    state,
    serviceConfigured: cleanUrl !== undefined,
    onWarning: warn,
  });
}

async function serviceChecker(account: Account, cleanUrl: string, choice: CheckChoice): Promise<Checker> {
  // A dry run sends nothing: it consults the journal and what is known of the allowance only if it can name the account.
  const client = choice.dryRun ? undefined : await account.cleaning();
  const key = await account.key();
  const state = key ? await sharedOrFail(account, key) : undefined;
  const { ServiceChecker } = await import('../clean/check/service/service-checker.js');
  return new ServiceChecker({
    state,
    client,
    service: redactUrl(cleanUrl),
    rate: account.settings.rate,
    concurrency: account.settings.concurrency,
    maxSpend: choice.maxSpend,
    precheck: choice.precheck ? choice.engine : undefined,
    clock: account.settings.clock,
  });
}

/** The account's state; with the service, a shared store that cannot be reached stops the run before it sends. */
async function sharedOrFail(account: Account, key: string): Promise<AccountState> {
  try {
    return await account.state(key);
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    throw new CliError(
      `${error.message}: nothing was sent`,
      ExitCode.error,
      'check the shared store (--shared, MAILCLEAN_REDIS_URL), or run without it to use this machine only',
    );
  }
}

/** The account's state; a shared store that cannot be reached leaves the engine to check everything (warned). */
async function stateOrWarn(
  account: Account,
  key: string,
  warn: (message: string) => void,
): Promise<AccountState | undefined> {
  try {
    return await account.state(key);
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    warn(`${error.message}: the engine checks what the journal does not answer`);
    return undefined;
  }
}

/** The engine's settings; a bad DNS server list is a usage error naming `source` (or MAILCLEAN_DNS_SERVERS). */
export async function engineSettings(o: EngineRequest, env: Env, source = 'dnsServers'): Promise<EngineSettings> {
  const given = typeof o.dnsServers === 'string' ? o.dnsServers : o.dnsServers?.join(',');
  const [from, list] =
    given !== undefined ? [source, given] : ['MAILCLEAN_DNS_SERVERS', env.MAILCLEAN_DNS_SERVERS?.trim() || undefined];
  let dnsServers: string[] | undefined;
  if (list !== undefined) {
    const { parseDnsServers } = await import('../verify/index.js');
    const parsed = parseDnsServers(list);
    if ('error' in parsed) throw new UsageError(`${from}: ${parsed.error}`);
    dnsServers = parsed.servers;
  }
  return { smtp: o.smtp ?? false, smtpPort: o.smtpPort ?? 25, smtpFrom: o.smtpFrom, dnsServers };
}
