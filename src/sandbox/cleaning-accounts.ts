import { checkCredentials, createUnlessTaken, grantToken } from './auth.js';
import { monthlyAllowance, nextMonthStart, usedThisMonth } from './clean-limits.js';
import { newObjectId } from './crypto.js';
import { cleaningOk } from './envelopes.js';
import { HttpError, INVALID_CREDENTIALS } from './errors.js';
import { pick } from './platform-shapes.js';
import type { HandlerResult, ParsedRequest, Route, SandboxContext } from './router.js';
import type { CleanUser } from './state.js';
import { isoMillis } from './time.js';
import { BodyChecker } from './validate.js';

/** Accounts of the email-cleaning service: a user table of their own, as the real services are separate. */
export const cleaningAuthRoutes: Route[] = [
  { method: 'POST', pattern: '/api/v1/auth/signup', handler: signup },
  { method: 'POST', pattern: '/api/v1/auth/signin', handler: signin },
];

/** spec: `result.token`; alt: `result.accessToken`. */
function signedIn(ctx: SandboxContext, token: string, user: CleanUser): Record<string, unknown> {
  return { [ctx.shape === 'alt' ? 'accessToken' : 'token']: token, user: userView(ctx, user) };
}

function userView(ctx: SandboxContext, user: CleanUser): Record<string, unknown> {
  const view: Record<string, unknown> = {
    ...pick(user, ['_id', 'name', 'email', 'plan']),
    createdAt: isoMillis(user.createdAt),
  };
  const allowance = monthlyAllowance(user.plan);
  if (allowance === undefined) return view;
  // The month's allowance as a user record might carry it (the spec shows no user fields), named as each shape does.
  const now = ctx.now();
  const counters = Object.hasOwn(ctx.store.state.cleanUsage, user._id)
    ? ctx.store.state.cleanUsage[user._id]
    : undefined;
  const used = counters ? usedThisMonth(counters, now) : 0;
  const left = Math.max(0, allowance - used);
  if (ctx.shape === 'alt') view.quota = { monthly_limit: allowance, used, left, reset_at: nextMonthStart(now) };
  else view.usage = { limit: allowance, used, remaining: left, renewsAt: nextMonthStart(now) };
  return view;
}

async function signup(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const c = new BodyChecker(req.body);
  const name = c.optional('name', { trim: true, max: 255 }) ?? '';
  const email = c.required('email', { email: true, max: 255 });
  const password = c.required('password', { min: 8, max: 1024 });
  const { user, token } = await createUnlessTaken(c, ctx, 'cleanUsers', { email, password }, (draft, hash) => {
    const now = ctx.now();
    const created: CleanUser = {
      _id: newObjectId(now),
      name,
      email,
      password: hash,
      plan: ctx.plan,
      createdAt: now,
      updatedAt: now,
    };
    draft.cleanUsers[created._id] = created;
    return { user: created, token: grantToken(draft, created._id, 'clean', ctx) };
  });
  return cleaningOk('Account created.', signedIn(ctx, token, user), 201);
}

async function signin(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const userId = (await checkCredentials(req, ctx.store.state.cleanUsers, ctx.passwordCost))._id;
  const { user, token } = await ctx.store.mutate((draft) => {
    const current = draft.cleanUsers[userId];
    if (!current) throw new HttpError(401, INVALID_CREDENTIALS);
    return { user: current, token: grantToken(draft, userId, 'clean', ctx) };
  });
  return cleaningOk('Signed in.', signedIn(ctx, token, user));
}
