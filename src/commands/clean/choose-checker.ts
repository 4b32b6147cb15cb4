// Who decides the rows: the cleaning service, or the built-in engine with its settings, chosen from the flags and
// the profile, and built with what it needs (the account's state, a signed-in client, the rate).
import type { EngineSettings } from '../../clean/check/engine/engine-settings.js';
import type { Checker } from '../../clean/run/checker.js';
import { type AccountState, SharedStateError } from '../../clean/state/account-state.js';
import { DEFAULT_RATE, parseRate } from '../../config/rate.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { redactUrl } from '../../redact.js';
import { cleaningAccountKey, cleaningSession } from '../common/sessions.js';
import type { CleanOptions } from './clean.js';

/**
 * The service when one is configured (and not --local), else the built-in engine, with one note saying so. A
 * profile that holds a cleaning token but no clean-url is a mistake to report, never a reason to check elsewhere.
 * The engine's settings are checked here, before anything is read. `onWarning` hears the engine's warnings.
 */
export async function chooseChecker(
  f: Factory,
  o: CleanOptions,
  onWarning: (message: string) => void,
): Promise<Checker> {
  const choice = await whoChecks(f, o);
  if (choice === 'service') return serviceChecker(f, o, (await f.profile()).urls().cleanUrl!);
  const { EngineChecker } = await import('../../clean/check/engine/engine-checker.js');
  // Signed in, --local keeps the answers the service already gave (this list's journal, the cache).
  const account = o.local ? await cleaningAccountKey(f, o.shared) : undefined;
  const state = account ? await stateOrWarn(f, o, account) : undefined;
  const serviceConfigured = (await f.profile()).urls().cleanUrl !== undefined;
  return EngineChecker.start(choice, { dryRun: o.dryRun, state, serviceConfigured, onWarning });
}

/** The service, or the built-in engine's settings: what `clean` and `verify` check with. */
export async function whoChecks(
  f: Factory,
  o: Pick<CleanOptions, 'local' | 'engine'>,
): Promise<'service' | EngineSettings> {
  const profile = await f.profile();
  const cleanUrl = profile.urls().cleanUrl;
  if (!o.local && cleanUrl !== undefined) {
    if (o.engine.given === '--dns-server')
      throw new UsageError(
        '--dns-server serves the built-in engine (--local) and the precheck, which --no-precheck turns off',
      );
    if (o.engine.given) throw new UsageError(`${o.engine.given} works with the built-in engine only (--local)`);
    return 'service';
  }
  if (!o.local && profile.token('clean').value) {
    throw new UsageError(
      `no clean-url is configured for profile "${f.profileName}", which holds a cleaning token`,
      'pass --clean-url URL or run `mailclean config set clean-url URL` (or --local to check with the built-in engine)',
    );
  }
  const settings = await engineSettings(o, f.io.env);
  if (!o.local) {
    f.io.note(
      'No cleaning service configured: checking with the built-in engine in-process (nothing spent). ' +
        'To use the service: `mailclean login --api-url URL --clean-url URL`.',
    );
  }
  return settings;
}

async function serviceChecker(f: Factory, o: CleanOptions, cleanUrl: string): Promise<Checker> {
  // A dry run sends nothing: it consults the journal and what is known of the allowance only if it can name the account.
  const client = o.dryRun ? undefined : await cleaningSession(f);
  const settings = (await f.profile()).settings();
  const rateSource = settings.rate ? `rate in profile "${f.profileName}"` : 'rate';
  const rate = o.rate ?? parseRate(settings.rate ?? DEFAULT_RATE, rateSource);
  const key = await cleaningAccountKey(f, o.shared);
  const state = key ? await sharedOrFail(f, o, key) : undefined;
  const { ServiceChecker } = await import('../../clean/check/service/service-checker.js');
  return new ServiceChecker({
    state,
    client,
    service: redactUrl(cleanUrl),
    rate,
    concurrency: o.concurrency,
    maxSpend: o.maxSpend,
    precheck: o.precheck ? await engineSettings(o, f.io.env) : undefined,
  });
}

/** The account's state; with the service, a shared store that cannot be reached stops the run before it sends. */
async function sharedOrFail(f: Factory, o: CleanOptions, key: string): Promise<AccountState> {
  try {
    return await f.accountState(key, o.shared);
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    throw new CliError(
      `${error.message}: nothing was sent`,
      ExitCode.error,
      'check --shared (or MAILCLEAN_REDIS_URL), or run without it to use this machine only',
    );
  }
}

/** The account's state; a shared store that cannot be reached leaves the engine to check everything (warned). */
async function stateOrWarn(f: Factory, o: CleanOptions, account: string): Promise<AccountState | undefined> {
  try {
    return await f.accountState(account, o.shared);
  } catch (error) {
    if (!(error instanceof SharedStateError)) throw error;
    f.io.warn(`${error.message}: the engine checks what the journal does not answer`);
    return undefined;
  }
}

/** What the built-in engine runs with: --smtp and friends, DNS servers from --dns-server or MAILCLEAN_DNS_SERVERS. */
export async function engineSettings(
  o: Pick<CleanOptions, 'engine'>,
  env: Record<string, string | undefined>,
): Promise<EngineSettings> {
  const [source, list] =
    o.engine.dnsServers !== undefined
      ? ['--dns-server', o.engine.dnsServers]
      : ['MAILCLEAN_DNS_SERVERS', env.MAILCLEAN_DNS_SERVERS?.trim() || undefined];
  let dnsServers: string[] | undefined;
  if (list !== undefined) {
    const { parseDnsServers } = await import('../../verify/index.js');
    const parsed = parseDnsServers(list);
    if ('error' in parsed) throw new UsageError(`${source}: ${parsed.error}`);
    dnsServers = parsed.servers;
  }
  return { smtp: o.engine.smtp, smtpPort: o.engine.smtpPort, smtpFrom: o.engine.smtpFrom, dnsServers };
}
