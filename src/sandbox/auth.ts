import { issueToken, parseToken, secretMatches, type TokenService } from './crypto.js';
import { unauthenticated } from './errors.js';
import type { ParsedRequest, SandboxContext } from './router.js';
import type { SandboxState } from './state.js';

/**
 * Resolves the bearer token to the id of its user. Tokens of another service fail like unknown
 * ones: the two real services are separate, so a token from one means nothing to the other.
 */
export function authenticate(req: ParsedRequest, ctx: SandboxContext, service: TokenService): string {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
  const parsed = match?.[1] === undefined ? undefined : parseToken(match[1]);
  if (!parsed) throw unauthenticated();
  const tokens = ctx.store.state.tokens;
  const record = Object.hasOwn(tokens, parsed.id) ? tokens[parsed.id] : undefined;
  if (!record || record.service !== service || !secretMatches(parsed.secret, record)) throw unauthenticated();
  if (record.expiresAt <= ctx.now()) throw unauthenticated();
  const users = service === 'clean' ? ctx.store.state.cleanUsers : ctx.store.state.platformUsers;
  if (!Object.hasOwn(users, record.userId)) throw unauthenticated();
  return record.userId;
}

/** Stores a new token in the draft state and returns its text; expired tokens are dropped on the way. */
export function grantToken(draft: SandboxState, userId: string, service: TokenService, ctx: SandboxContext): string {
  const now = ctx.now();
  for (const [id, t] of Object.entries(draft.tokens)) {
    if (t.expiresAt <= now) delete draft.tokens[id];
  }
  const { token, id, record } = issueToken(userId, service, now, ctx.tokenTtlMs);
  draft.tokens[id] = record;
  return token;
}
