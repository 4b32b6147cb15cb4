// Who decides the rows: the cleaning service, or the built-in engine with its settings.
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { CleanOptions } from './clean.js';

/**
 * The service when one is configured (and not --local), else the built-in engine, with one note saying so. A
 * profile that holds a cleaning token but no clean-url is a mistake to report, never a reason to check elsewhere.
 * The engine's settings are checked here, before anything is read.
 */
export async function chooseChecker(
  f: Factory,
  o: Pick<CleanOptions, 'local' | 'engine'>,
): Promise<'service' | EngineSettings> {
  const profile = await f.profile();
  if (!o.local && profile.urls().cleanUrl !== undefined) {
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

/** What the built-in engine runs with: --smtp and friends, DNS servers from --dns-server or MAILCLEAN_DNS_SERVERS. */
export interface EngineSettings {
  smtp: boolean;
  smtpPort: number;
  smtpFrom?: string;
  dnsServers?: string[];
}

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
