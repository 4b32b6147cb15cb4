// The service's status words in mailclean's five, wherever a verdict comes from: an answer, a journal, a cache.
import type { Verdict } from './verdict.js';

/**
 * The service's status words (its own, or those of the checkers it wraps) in the five mailclean documents, so
 * one list never mixes two vocabularies and --only/--fail-when mean the same whichever checker answered.
 */
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

/**
 * A verdict kept before statuses were put in mailclean's words (a journal or cache entry holding the service's
 * own word): the same verdict, in today's form.
 */
export function inDocumentedWords(v: Verdict): Verdict {
  const status = documentedStatus(v.status, v.valid);
  if (status === v.status) return v;
  return { ...v, status, serviceStatus: v.serviceStatus ?? v.status };
}
