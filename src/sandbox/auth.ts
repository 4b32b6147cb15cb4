import {
  hashPassword,
  issueToken,
  type PasswordHash,
  parseToken,
  secretMatches,
  type TokenService,
  verifyPassword,
} from './crypto.js';
import { EMAIL_TAKEN, HttpError, INVALID_CREDENTIALS, Unauthenticated } from './errors.js';
import type { ParsedRequest, SandboxContext } from './router.js';
import { findByEmail, type SandboxState } from './state.js';
import { BodyChecker } from './validate.js';

/** The bearer token's user id; another service's token fails like an unknown one, as the real services are apart. */
export function authenticate(req: ParsedRequest, ctx: SandboxContext, service: TokenService): string {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  const parsed = match?.[1] === undefined ? undefined : parseToken(match[1]);
  if (!parsed) throw new Unauthenticated();
  const tokens = ctx.store.state.tokens;
  const record = Object.hasOwn(tokens, parsed.id) ? tokens[parsed.id] : undefined;
  if (!record || record.service !== service || !secretMatches(parsed.secret, record)) throw new Unauthenticated();
  if (record.expiresAt <= ctx.now()) throw new Unauthenticated();
  const users = service === 'clean' ? ctx.store.state.cleanUsers : ctx.store.state.platformUsers;
  if (!Object.hasOwn(users, record.userId)) throw new Unauthenticated();
  return record.userId;
}

/** Stores a new token in the draft state and returns its text; expired tokens are dropped on the way. */
export function grantToken(draft: SandboxState, userId: string, service: TokenService, ctx: SandboxContext): string {
  const now = ctx.now();
  for (const [id, t] of Object.entries(draft.tokens)) if (t.expiresAt <= now) delete draft.tokens[id];
  const { token, id, record } = issueToken(userId, service, now, ctx.tokenTtlMs);
  draft.tokens[id] = record;
  return token;
}

/** The user a sign-in body names, if the password is right; a missing account and a wrong password fail alike. */
export async function checkCredentials<T extends { email: string; password: PasswordHash }>(
  req: ParsedRequest,
  users: Record<string, T>,
  passwordCost: number,
): Promise<T> {
  const c = new BodyChecker(req.body);
  const email = c.required('email', { trim: true });
  const password = c.required('password');
  c.check();

  const found = findByEmail(users, email);
  // verifyPassword spends the same time whether or not the account exists.
  if (!(await verifyPassword(password, found?.password, passwordCost)) || !found)
    throw new HttpError(401, INVALID_CREDENTIALS);
  return found;
}

/**
 * Hashes the password and has `create` store the account once the body checks out, unless the email is taken: before
 * the hashing, or by another request while it ran.
 */
export async function createUnlessTaken<T>(
  c: BodyChecker,
  ctx: SandboxContext,
  users: 'platformUsers' | 'cleanUsers',
  { email, password }: { email: string; password: string },
  create: (draft: SandboxState, hash: PasswordHash) => T,
): Promise<T> {
  const taken = (state: SandboxState) => findByEmail<{ email: string }>(state[users], email) !== undefined;
  if (email && taken(ctx.store.state)) c.add('email', EMAIL_TAKEN);
  c.check();
  const hash = await hashPassword(password, ctx.passwordCost);
  return ctx.store.mutate((draft) => {
    if (taken(draft)) throw new HttpError(422, EMAIL_TAKEN, { email: [EMAIL_TAKEN] });
    return create(draft, hash);
  });
}
