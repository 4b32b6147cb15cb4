// A list cleaned before with this account. Finished: its answers are reused, nothing is paid again. Unfinished:
// --resume continues it, --restart starts over (paying again); otherwise the user is asked where someone can
// answer, and a run that cannot ask stops before anything is paid, saying which flag decides.
import { UsageError } from '../../errors.js';
import { quantity } from '../../quantities.js';
import type { UniqueKeys } from '../scan/spill/unique-keys.js';
import type { SavedAnswers } from '../state/account-state.js';
import type { RunPorts } from './events.js';
import type { CleanRequest } from './request.js';

export async function decideEarlierRun(
  request: CleanRequest,
  ports: RunPorts,
  unique: UniqueKeys,
  saved: SavedAnswers,
): Promise<'resume' | 'restart' | 'cancel'> {
  if (request.earlierRun) return request.earlierRun;
  let covered = 0;
  if (saved.results.size > 0) for (const key of unique) if (saved.results.has(key)) covered++;
  if (covered === 0 || covered === unique.size || request.dryRun || request.yes) return 'resume';
  const left = unique.size - covered;
  if (!ports.questions) {
    throw new UsageError(
      `an earlier run of this list saved ${quantity(covered, 'answer')} and has ${quantity(left, 'address', 'addresses')} left to check`,
      'pass --resume to continue it (nothing is paid twice), or --restart to start over (paying again)',
    );
  }
  return ports.questions.earlierRun({ saved: covered, left, unique: unique.size });
}
