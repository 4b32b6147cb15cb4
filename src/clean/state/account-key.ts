// Which account a run works for, whatever the token's source: every identity a session can show is remembered (hashed
// only) against one account key, and the first identity found names the account.
import { createHash } from 'node:crypto';
import type { AccountDirectory } from './account-state.js';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

export interface Identity {
  cleanUrl: string;
  token?: string;
  /** The email the profile signed in with (only when the token is the profile's). */
  email?: string;
  /** The service's id of the user: from the sign-in answer, the token itself (a JWT), or an answer's `userId`. */
  userId?: string;
}

/** The identities a session shows, strongest first, each as a hash bound to the service's URL. */
export function identitiesOf(id: Identity): string[] {
  const names = [
    id.userId ? `user:${id.userId}` : undefined,
    id.email ? `email:${id.email.toLowerCase()}` : undefined,
    id.token ? `token:${hash(id.token)}` : undefined,
  ];
  return names.filter((n): n is string => n !== undefined).map((name) => hash(id.cleanUrl, name).slice(0, 32));
}

/** By email, else user id, else token: the forms of earlier versions, so that their data directories are found. */
export function accountKey(
  cleanUrl: string,
  email: string | undefined,
  token: string | undefined,
  userId?: string,
): string {
  const name = email ? `email:${email.toLowerCase()}` : userId ? `user:${userId}` : `token:${hash(token ?? '')}`;
  return hash(cleanUrl, name).slice(0, 32);
}

/** The account these identities belong to, remembered for each of them (an identity keeps the account it had). */
export async function resolveAccount(directory: AccountDirectory, id: Identity): Promise<string> {
  const identities = identitiesOf({ ...id, userId: id.userId ?? userIdOfToken(id.token) });
  const account = (await directory.find(identities)) ?? accountKey(id.cleanUrl, id.email, id.token, id.userId);
  await directory.remember(identities, account);
  return account;
}

/** The user a JWT names (`sub`, `id`, `_id`, `userId`, `user_id`), without checking its signature. */
export function userIdOfToken(token: string | undefined): string | undefined {
  const parts = token?.split('.');
  if (parts?.length !== 3) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const name of ['sub', 'id', '_id', 'userId', 'user_id']) {
      const value = claims[name];
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number') return String(value);
    }
  } catch {
    /* not a JWT: the token alone names it */
  }
  return undefined;
}
