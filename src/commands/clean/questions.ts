// The questions `clean` may ask on a terminal before anything is paid: go on with an earlier run of the list,
// and spend this much of the allowance.

import type { ScanResult } from '../../clean/scan/scan.js';
import type { KnownAllowance, SavedAnswers } from '../../clean/state/account-state.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { promptConfirm } from '../../io/prompt.js';
import { formatCount, quantity } from '../../quantities.js';
import type { CleanOptions } from './clean.js';
import { allowanceText } from './report.js';

/** Above this many addresses, a run on a terminal asks before spending (unless --yes). */
const CONFIRM_ABOVE = 1_000;

/** On a terminal, a run that spends more than a little asks first, saying what is known of the allowance. */
export async function confirmSpend(
  f: Factory,
  o: CleanOptions,
  pending: number,
  allowance: KnownAllowance | undefined,
): Promise<boolean> {
  const toSpend = o.maxSpend !== undefined ? Math.min(o.maxSpend, pending) : pending;
  if (toSpend <= CONFIRM_ABOVE || o.yes || !f.io.canPrompt) return true;
  f.io.say(
    `This run will spend up to ${quantity(toSpend, 'address', 'addresses')} of your allowance${allowance ? ` (${allowanceText(allowance)})` : ''}.`,
  );
  return promptConfirm(f.io.raw, 'Continue?');
}

/**
 * An earlier run's journal. Finished: reused, nothing is paid again (--restart pays again). Unfinished:
 * --resume continues, --restart discards; on a terminal the user is asked, and told what starting over costs.
 */
export async function decideRestart(
  f: Factory,
  o: CleanOptions,
  earlier: SavedAnswers | undefined,
  scan: ScanResult,
): Promise<boolean | 'cancel'> {
  if (o.restart) return true;
  if (o.resume || !earlier || earlier.results.size === 0) return false;
  const saved = earlier.results;
  let covered = 0;
  for (const key of scan.unique) if (saved.has(key)) covered++;
  if (covered === 0 || covered === scan.unique.size || o.dryRun || o.yes) return false;
  const left = scan.unique.size - covered;
  if (!f.io.canPrompt) {
    throw new UsageError(
      `an earlier run of this list saved ${quantity(covered, 'answer')} and has ${quantity(left, 'address', 'addresses')} left to check`,
      'pass --resume to continue it (nothing is paid twice), or --restart to start over (paying again)',
    );
  }
  f.io.say(
    `An earlier run of this list saved ${quantity(covered, 'answer')}; ${quantity(left, 'address', 'addresses')} ${left === 1 ? 'is' : 'are'} still to check.`,
  );
  if (await promptConfirm(f.io.raw, 'Resume it?')) return false;
  f.io.say(
    `Starting over sends all ${quantity(scan.unique.size, 'address', 'addresses')} again: ${formatCount(covered)} of them are paid a second time.`,
  );
  if (await promptConfirm(f.io.raw, 'Start over?', false)) return true;
  f.io.note('Nothing was sent.');
  return 'cancel';
}
