import { createHash } from 'node:crypto';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

/**
 * Which account on which service: the stored email when the token is the profile's, else a hash of the
 * token itself (never the token). Runs of one account share the rate limiter, the cache and their journals.
 */
export function accountKey(cleanUrl: string, email: string | undefined, token: string | undefined): string {
  return hash(cleanUrl, email ? `email:${email.toLowerCase()}` : `token:${hash(token ?? '')}`).slice(0, 32);
}
