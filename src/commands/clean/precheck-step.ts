// The precheck in a run with the service (and its dry run): the built-in engine, asking the resolvers of
// --dns-server or MAILCLEAN_DNS_SERVERS (else the system's), decides what it can before anything is paid.
import type { OnDecided, PrecheckOutcome } from '../../clean/check/precheck.js';
import type { KeySet } from '../../clean/state/verdict-cache.js';
import type { Factory } from '../../factory.js';
import { byCodeUnits, formatCount, quantity } from '../../quantities.js';
import { engineSettings } from './choose-checker.js';
import type { CleanOptions } from './clean.js';

/**
 * Runs the precheck over `keys` (unless --no-precheck), saying what it decided; undefined when it did not run.
 * Without `onDecided`, what it decides is only counted (a dry run).
 */
export async function runPrecheck(
  f: Factory,
  o: Pick<CleanOptions, 'precheck' | 'engine'>,
  keys: readonly string[] | KeySet,
  onDecided?: OnDecided,
): Promise<PrecheckOutcome | undefined> {
  if (!o.precheck || ('size' in keys ? keys.size : keys.length) === 0) return undefined;
  const settings = await engineSettings(o, f.io.env);
  const [{ Engine }, { precheck }] = await Promise.all([
    import('../../verify/index.js'),
    import('../../clean/check/precheck.js'),
  ]);
  // Per-domain DNS trouble only leaves those addresses to the service: worth a debug line, not a warning.
  const engine = new Engine({
    dns: { servers: settings.dnsServers, confirmNoDomain: true },
    onWarning: (message) => f.io.debug(`precheck: ${message}`),
  });
  const stopEngine = () => void engine.close();
  f.io.signals.stop.addEventListener('abort', stopEngine, { once: true });
  try {
    const outcome = await precheck(keys, engine, { stop: f.io.signals.stop, now: Date.now, onDecided });
    if (outcome.unreachable !== undefined) {
      f.io.note(
        `Precheck skipped: DNS does not answer (${outcome.unreachable}), so every address is sent to the service (--dns-server names a resolver; --no-precheck silences this).`,
      );
    } else if (outcome.decidedCount > 0) {
      f.io.note(
        `Precheck: ${quantity(outcome.decidedCount, 'address', 'addresses')} decided here for free (${reasonsText(outcome.byReason)}): not sent.`,
      );
    }
    return outcome;
  } finally {
    f.io.signals.stop.removeEventListener('abort', stopEngine);
    await engine.close();
  }
}

/** "no_domain 8, disposable 3". */
export function reasonsText(byReason: ReadonlyMap<string, number>): string {
  return [...byReason]
    .sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]))
    .map(([reason, n]) => `${reason} ${formatCount(n)}`)
    .join(', ');
}
