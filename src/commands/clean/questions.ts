// The questions `clean` asks on a terminal before anything is paid; elsewhere the flags decide.
import type { RunQuestions } from '../../clean/run/events.js';
import type { KnownAllowance } from '../../clean/state/account-state.js';
import type { Factory } from '../../factory.js';
import { promptConfirm } from '../../io/prompt.js';
import { formatCount, quantity } from '../../quantities.js';

export function terminalQuestions(f: Factory): RunQuestions | undefined {
  if (!f.io.canPrompt) return undefined;
  return {
    async earlierRun({ saved, left, unique }) {
      const are = left === 1 ? 'is' : 'are';
      f.io.say(
        `An earlier run of this list saved ${quantity(saved, 'answer')}; ${quantity(left, 'address', 'addresses')} ${are} still to check.`,
      );
      if (await promptConfirm(f.io, 'Resume it?')) return 'resume';
      f.io.say(
        `Starting over sends all ${quantity(unique, 'address', 'addresses')} again: ${formatCount(saved)} of them are paid a second time.`,
      );
      return (await promptConfirm(f.io, 'Start over?', false)) ? 'restart' : 'cancel';
    },
    async confirmSpend({ addresses, allowance }) {
      const known = allowance?.left !== undefined ? ` (${allowanceText(allowance)})` : '';
      f.io.say(`This run will spend up to ${quantity(addresses, 'address', 'addresses')} of your allowance${known}.`);
      return promptConfirm(f.io, 'Continue?');
    },
  };
}

/** "10 left as of 2026-11-22 14:03 UTC". */
export function allowanceText(known: KnownAllowance): string {
  return `${formatCount(known.left!)} left as of ${known.asOf.slice(0, 16).replace('T', ' ')} UTC`;
}
