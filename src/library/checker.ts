// Who decides a run's addresses, the one rule for the library and the CLI: the cleaning service or the built-in
// engine, each built with what it needs.
import type { EngineSettings } from '../clean/check/engine/engine-settings.js';
import type { Checker } from '../clean/run/checker.js';
import type { SharedStateError } from '../clean/state/account-state.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { Account } from './account.js';
import { dnsConcurrencyOf, dnsTimeoutOf, wholeNumber } from './option-checks.js';
import type { ClientSettings } from './settings.js';
import type { CheckOptions, EngineRequest } from './types.js';

export interface CheckChoice {
  checker: 'service' | 'engine';
  /** With the service: the engine decides first what it can for free (DNS, lists), and that is not sent. */
  precheck: boolean;
  engine: EngineSettings;
  maxSpend?: number;
}

/** The service when the client has one and `local` is not asked, else the built-in engine. */
export function whoChecks(settings: ClientSettings, o: CheckOptions): CheckChoice['checker'] {
  const name = settings.naming;
  const checker = o.local || settings.cleanUrl === undefined ? 'engine' : 'service';
  if (checker === 'engine' && !o.local && settings.token !== undefined) throw settings.tokenWithoutService;
  // An option of the mailbox probe that cannot take effect is refused rather than dropped.
  const probe = (['smtp', 'smtpFrom', 'smtpPort'] as const).find((option) => (o[option] ?? false) !== false);
  if (probe !== undefined && checker === 'service')
    throw new UsageError(`${name(probe)} works with the built-in engine only (${name('local')})`);
  if (probe !== undefined && !o.smtp) throw new UsageError(`${name(probe)} goes with ${name('smtp')}`);
  const dns = (['dnsServers', 'dnsConcurrency', 'dnsTimeout'] as const).find((option) => o[option] !== undefined);
  if (checker === 'service' && dns !== undefined && o.precheck === false)
    throw new UsageError(
      `${name(dns)} serves the built-in engine (${name('local')}) and the precheck, which ${name('noPrecheck')} turns off`,
    );
  return checker;
}

export async function checkChoice(
  o: CheckOptions & { maxSpend?: number },
  settings: ClientSettings,
): Promise<CheckChoice> {
  return {
    checker: whoChecks(settings, o),
    precheck: o.precheck ?? true,
    engine: await engineSettings(o, settings),
    maxSpend: o.maxSpend,
  };
}

export async function buildChecker(
  account: Account,
  choice: CheckChoice,
  request: { dryRun: boolean; outputs: { only?: ReadonlySet<string> } },
  warn: (message: string) => void,
) {
  const { cleanUrl, naming: name } = account.settings;
  const dryRun = request.dryRun;
  // Without the precheck a run with the service asks DNS nothing: `only`'s providers would keep no row.
  const byProvider = [...(request.outputs.only ?? [])].find((term) => term.startsWith('provider='));
  if (byProvider && choice.checker === 'service' && !choice.precheck)
    throw new UsageError(
      `${name('only')} ${byProvider}: providers are looked up by the precheck, which ${name('noPrecheck')} turns off`,
    );
  if (choice.checker === 'service') return serviceChecker(account, cleanUrl!, choice, dryRun);
  const { EngineChecker } = await import('../clean/check/engine/engine-checker.js');
  // With a service, `local` keeps the answers the service already gave (this list's journal, the cache).
  const state = await account.stateOr((error) =>
    warn(`${error.message}: the engine checks what the journal does not answer`),
  );
  return EngineChecker.start(choice.engine, {
    dryRun,
    state,
    serviceConfigured: cleanUrl !== undefined,
    onWarning: warn,
  });
}

async function serviceChecker(
  account: Account,
  cleanUrl: string,
  choice: CheckChoice,
  dryRun: boolean,
): Promise<Checker> {
  const client = dryRun ? undefined : await account.cleaning();
  const state = await account.stateOr(nothingSent);
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

/** A shared store that cannot be reached stops a check before it sends. */
export function nothingSent(error: SharedStateError): never {
  throw new CliError(
    `${error.message}: nothing was sent`,
    ExitCode.error,
    'check the shared store (--shared, MAILCLEAN_REDIS_URL), or run without it to use this machine only',
  );
}

/** The engine's settings; a bad DNS server list is a usage error naming where it came from. */
export async function engineSettings(o: EngineRequest, settings: ClientSettings): Promise<EngineSettings> {
  const given = typeof o.dnsServers === 'string' ? o.dnsServers : o.dnsServers?.join(',');
  const [from, list] =
    given !== undefined
      ? [settings.naming('dnsServers'), given]
      : ['MAILCLEAN_DNS_SERVERS', settings.env.MAILCLEAN_DNS_SERVERS?.trim() || undefined];
  let dnsServers: string[] | undefined;
  if (list !== undefined) {
    const { parseDnsServers } = await import('../verify/index.js');
    const parsed = parseDnsServers(list);
    if ('error' in parsed) throw new UsageError(`${from}: ${parsed.error}`);
    dnsServers = parsed.servers;
  }
  const { naming } = settings;
  return {
    smtp: o.smtp ?? false,
    smtpPort: o.smtpPort === undefined ? 25 : wholeNumber(o.smtpPort, naming('smtpPort'), 1, 65535),
    smtpFrom: o.smtpFrom,
    dnsServers,
    dnsConcurrency: dnsConcurrencyOf(o.dnsConcurrency, naming('dnsConcurrency')),
    dnsTimeoutMs: o.dnsTimeout === undefined ? undefined : dnsTimeoutOf(o.dnsTimeout, naming('dnsTimeout')),
  };
}
