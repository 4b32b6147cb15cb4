import { CliError } from '../errors.js';

export type ServiceName = 'platform' | 'clean';

export type ServiceOutcome =
  | { service: ServiceName; ok: true; data: Record<string, string | null | undefined> }
  | { service: ServiceName; ok: false; error: CliError };

type Step = () => Promise<Record<string, string | null | undefined>>;

/** Runs each chosen service's step; with both, one failing is kept as an outcome, with one, its failure is thrown. */
export async function runEach(
  choice: ServiceName | 'all',
  steps: Record<ServiceName, Step>,
): Promise<ServiceOutcome[]> {
  const services = choice === 'all' ? (['platform', 'clean'] as const) : ([choice] as const);
  const outcomes: ServiceOutcome[] = [];
  for (const service of services) {
    try {
      outcomes.push({ service, ok: true, data: await steps[service]() });
    } catch (error) {
      if (!(error instanceof CliError) || services.length === 1) throw error;
      outcomes.push({ service, ok: false, error });
    }
  }
  return outcomes;
}
