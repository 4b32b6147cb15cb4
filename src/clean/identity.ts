import { createHash } from 'node:crypto';
import { join } from 'node:path';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

/**
 * Which account on which service: the stored email when the token is the profile's, else a hash of the
 * token itself (never the token). Runs of one account share the rate limiter and their journals.
 */
export function accountKey(cleanUrl: string, email: string | undefined, token: string | undefined): string {
  return hash(cleanUrl, email ? `email:${email.toLowerCase()}` : `token:${hash(token ?? '')}`).slice(0, 32);
}

export function limiterStatePath(dataDir: string, account: string): string {
  return join(dataDir, 'limiter', `${account}.json`);
}

/** One journal per input and account: the same list cleaned again finds its earlier answers. */
export function journalPath(dataDir: string, account: string, inputFingerprint: string): string {
  return join(dataDir, 'journals', `${hash(account, inputFingerprint).slice(0, 40)}.ndjson`);
}
