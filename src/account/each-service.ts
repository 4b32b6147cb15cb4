import type { Ctx } from '../context.js';
import { CliError, ExitCode } from '../errors.js';

export type ServiceOutcome =
  | { service: 'platform' | 'clean'; ok: true; data: Record<string, string | null | undefined> }
  | { service: 'platform' | 'clean'; ok: false; error: CliError };

type Step = () => Promise<Record<string, string | null | undefined>>;

/**
 * Runs the step of each chosen service. With both chosen, one failing does not undo the other:
 * its error is kept for the caller to report as a warning.
 */
export async function runEach(
  ctx: Ctx,
  choice: 'platform' | 'clean' | 'all',
  steps: { platform: Step; clean: Step },
): Promise<ServiceOutcome[]> {
  const services = choice === 'all' ? (['platform', 'clean'] as const) : ([choice] as const);
  const outcomes: ServiceOutcome[] = [];
  for (const service of services) {
    try {
      outcomes.push({ service, ok: true, data: await steps[service]() });
    } catch (error) {
      if (!(error instanceof CliError) || services.length === 1) throw error;
      ctx.debug(`${service} failed: ${error.message}`);
      outcomes.push({ service, ok: false, error });
    }
  }
  return outcomes;
}

/** Shared by register and login: one line per service on stderr, an object per service on stdout with --json. */
export function reportOutcomes(ctx: Ctx, json: string | boolean | undefined, outcomes: ServiceOutcome[], verb: string): number {
  for (const o of outcomes) {
    const where = o.service === 'platform' ? 'the platform' : 'the cleaning service';
    if (o.ok) ctx.note(`${ctx.style.green('✓')} ${verb} ${o.data.email ?? ''} on ${where}${o.data.userId ? ` (user ${o.data.userId})` : ''}`);
  }
  if (json !== undefined) {
    const value = Object.fromEntries(outcomes.map((o) => [o.service, o.ok ? { ok: true, ...o.data } : { ok: false, error: o.error.message }]));
    ctx.json(value, json, ['platform', 'clean']);
  }
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length === 0) return ExitCode.ok;
  if (failed.length < outcomes.length) {
    for (const f of failed) if (!f.ok) ctx.warn(`${f.service}: ${f.error.message}`);
    return ExitCode.ok;
  }
  const first = failed[0]!;
  if (!first.ok) throw first.error;
  return ExitCode.error;
}
