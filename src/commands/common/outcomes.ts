import type { ServiceOutcome } from '../../account/each-service.js';
import { ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { JsonFlag } from '../../io/json.js';

/** Shared by register and login: one line per service on stderr, an object per service on stdout with --json. */
export function reportOutcomes(f: Factory, json: JsonFlag, outcomes: ServiceOutcome[], verb: string): number {
  for (const o of outcomes) {
    const where = o.service === 'platform' ? 'the platform' : 'the cleaning service';
    if (o.ok)
      f.io.note(
        `${f.io.style.green('✓')} ${verb} ${o.data.email ?? ''} on ${where}${o.data.userId ? ` (user ${o.data.userId})` : ''}`,
      );
    else f.io.debug(`${o.service} failed: ${o.error.message}`);
  }
  if (json !== undefined) {
    const value = Object.fromEntries(
      outcomes.map((o) => [o.service, o.ok ? { ok: true, ...o.data } : { ok: false, error: o.error.message }]),
    );
    f.io.json(value, json, ['platform', 'clean']);
  }
  const failed = outcomes.flatMap((o) => (o.ok ? [] : [o]));
  if (failed.length === 0) return ExitCode.ok;
  if (failed.length === outcomes.length) throw failed[0]!.error;
  for (const o of failed) f.io.warn(`${o.service}: ${o.error.message}`);
  return ExitCode.ok;
}
