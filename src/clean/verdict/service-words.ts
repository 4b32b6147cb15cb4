import { words } from '../../verify/lists.js';

type Documented = 'valid' | 'invalid' | 'risky' | 'unknown';

/** The service's status words in mailclean's, so --only and --fail-when mean the same whichever checker answered. */
const SYNONYMS_OF: Record<Documented, string> = {
  valid: 'valid deliverable ok safe good verified',
  invalid: 'invalid undeliverable bad bounce bounced rejected donotmail',
  risky: 'risky catchall acceptall disposable role rolebased spamtrap toxic abuse',
  unknown: 'unknown unverifiable timeout error',
};

const SYNONYMS = new Map<string, Documented>(
  (Object.keys(SYNONYMS_OF) as Documented[]).flatMap((status) =>
    words(SYNONYMS_OF[status]).map((word) => [word, status] as const),
  ),
);

/** The word a status is written in, as mailclean documents it; a word nobody knows is judged by the `valid` flag. */
export function documentedStatus(word: string, valid: boolean | null): Documented | 'unchecked' {
  const known = SYNONYMS.get(word.toLowerCase().replace(/[^a-z]/g, ''));
  if (word === 'unchecked') return 'unchecked';
  return known ?? (valid === true ? 'valid' : valid === false ? 'invalid' : 'unknown');
}
