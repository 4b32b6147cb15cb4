// A list cleaned before with this account: an unfinished one is resumed or restarted as the flags or the user say;
// without anyone to ask, a run stops before paying, once the free answers (cache, precheck) are in.
import { UsageError } from '../../errors.js';
import { quantity } from '../../quantities.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';

/** `saved`: how many of the list's `unique` addresses the earlier run answered. */
export async function decideEarlierRun(
  request: CleanRequest,
  ports: RunPorts,
  unique: number,
  saved: number,
): Promise<'resume' | 'restart' | 'cancel'> {
  if (request.earlierRun) return request.earlierRun;
  if (saved === 0 || saved === unique || request.dryRun || request.yes) return 'resume';
  if (!ports.questions) return 'resume';
  return ports.questions.earlierRun({ saved, left: unique - saved, unique });
}

export function refuseUnfinished(request: CleanRequest, ports: RunPorts, saved: number, left: number): void {
  if (saved === 0 || left === 0 || request.earlierRun || request.yes || ports.questions) return;
  throw new UsageError(
    `an earlier run of this list saved ${quantity(saved, 'answer')} and has ${quantity(left, 'address', 'addresses')} left to check`,
    'pass --resume to continue it (nothing is paid twice), or --restart to start over (paying again)',
  );
}
