import type { Verdict } from './verdict.js';

/** The service's status words in mailclean's, so --only and --fail-when mean the same whichever checker answered. */
const SYNONYMS: Record<string, 'valid' | 'invalid' | 'risky' | 'unknown'> = {
  valid: 'valid',
  deliverable: 'valid',
  ok: 'valid',
  safe: 'valid',
  good: 'valid',
  verified: 'valid',
  invalid: 'invalid',
  undeliverable: 'invalid',
  bad: 'invalid',
  bounce: 'invalid',
  bounced: 'invalid',
  rejected: 'invalid',
  donotmail: 'invalid',
  risky: 'risky',
  catchall: 'risky',
  acceptall: 'risky',
  disposable: 'risky',
  role: 'risky',
  rolebased: 'risky',
  spamtrap: 'risky',
  toxic: 'risky',
  abuse: 'risky',
  unknown: 'unknown',
  unverifiable: 'unknown',
  timeout: 'unknown',
  error: 'unknown',
};

/** The word a status is written in, as mailclean documents it; a word nobody knows is judged by the `valid` flag. */
export function documentedStatus(
  word: string,
  valid: boolean | null,
): 'valid' | 'invalid' | 'risky' | 'unknown' | 'unchecked' {
  const known = SYNONYMS[word.toLowerCase().replace(/[^a-z]/g, '')];
  if (word === 'unchecked') return 'unchecked';
  return known ?? (valid === true ? 'valid' : valid === false ? 'invalid' : 'unknown');
}

/** A journal's or cache's verdict holding the service's own status word, in mailclean's words. */
export function inDocumentedWords(v: Verdict): Verdict {
  const status = documentedStatus(v.status, v.valid);
  if (status === v.status) return v;
  return { ...v, status, serviceStatus: v.serviceStatus ?? v.status };
}
