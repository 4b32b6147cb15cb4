// Who decides the rows, as the flags and the profile say: the cleaning service, or the built-in engine with its
// settings. The library's client (src/library/) builds the checker; here the flags are checked, named in messages, and
// the profile turned into the client's settings.
import type { Rate } from '../../config/rate.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { CheckChoice } from '../../library/checker.js';
import type { MailcleanClient } from '../../library/client.js';
import type { CleanOptions } from './clean.js';

/** The service, or the built-in engine: what `clean` and `verify` check with. */
export async function whoChecks(f: Factory, o: Pick<CleanOptions, 'local' | 'engine'>): Promise<'service' | 'engine'> {
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
  if (!o.local) {
    f.io.note(
      'No cleaning service configured: checking with the built-in engine in-process (nothing spent). ' +
        'To use the service: `mailclean login --api-url URL --clean-url URL`.',
    );
  }
  return 'engine';
}

/** How `clean` checks: the flags as the library's choice, the engine's settings read now (a bad one stops here). */
export async function checkChoice(f: Factory, o: CleanOptions): Promise<CheckChoice & { kind: 'service' | 'local' }> {
  const who = await whoChecks(f, o);
  return {
    kind: who === 'service' ? 'service' : 'local',
    local: o.local,
    precheck: o.precheck,
    engine: await engineSettings(o, f.io.env),
    maxSpend: o.maxSpend,
    dryRun: o.dryRun,
  };
}

/** The engine's settings from --smtp and friends; DNS servers from --dns-server or MAILCLEAN_DNS_SERVERS. */
export async function engineSettings(o: Pick<CleanOptions, 'engine'>, env: Record<string, string | undefined>) {
  const { engineSettings: settingsOf } = await import('../../library/checker.js');
  return settingsOf(o.engine, env, '--dns-server');
}

/** The library's client for this profile, with the flags that change it (--shared, --rate, --concurrency). */
export async function cliClient(
  f: Factory,
  o: { shared?: string; rate?: Rate; concurrency?: number } = {},
): Promise<MailcleanClient> {
  const [profile, sharedUrl, { profileOptions }, { resolveSettings }, { MailcleanClient }, { refusedTokenHint }] =
    await Promise.all([
      f.profile(),
      f.sharedUrl(o.shared),
      import('../../library/profile.js'),
      import('../../library/settings.js'),
      import('../../library/client.js'),
      import('../../config/profile.js'),
    ]);
  const stored = profileOptions(profile, f.io.env);
  const settings = resolveSettings(
    {
      ...stored,
      shared: sharedUrl,
      rate: o.rate ?? stored.rate,
      concurrency: o.concurrency,
      dataDir: f.dataDir,
      env: f.io.env,
      debug: f.io.debugEnabled ? (line) => f.io.debug(line) : undefined,
    },
    { cleanUrl: '--clean-url', shared: '--shared', rate: '--rate', concurrency: '--concurrency' },
    {
      secrets: f.io.secrets,
      authHint: 'run `mailclean login --service clean`, or set MAILCLEAN_CLEAN_TOKEN',
      refusedHint: refusedTokenHint('clean', profile.token('clean').source),
      clock: f.io.clock,
    },
  );
  return new MailcleanClient(settings);
}
