import { authenticate, checkCredentials, createUnlessTaken, grantToken } from './auth.js';
import { sharedSecretMatches } from './crypto.js';
import { platformOk, type Shape } from './envelopes.js';
import { HttpError, INVALID_CREDENTIALS, Unauthenticated } from './errors.js';
import { createPlatformAccount } from './platform-accounts.js';
import {
  brandView,
  type Json,
  type PermissionDetail,
  pick,
  rolesView,
  subscriptionView,
  userBrands,
  userFields,
  userRoleView,
} from './platform-shapes.js';
import type { HandlerResult, ParsedRequest, Route, SandboxContext } from './router.js';
import type { BrandRecord, PlatformUser, SandboxState } from './state.js';
import { BodyChecker } from './validate.js';

export const INTERNAL_ACCESS_FIELD = 'internal_access_32543hbhjb3243h4';

export const platformRoutes: Route[] = [
  { method: 'POST', pattern: '/api/register', handler: register },
  { method: 'POST', pattern: '/api/oem/register', handler: oemRegister },
  { method: 'POST', pattern: '/api/login', handler: login },
  { method: 'GET', pattern: '/api/me', handler: getMe },
  { method: 'POST', pattern: '/api/me', handler: updateMe },
  { method: 'GET', pattern: '/api/user/:user_id/roles', handler: getRoles },
];

/** Where a registration or login answer puts the platform token. */
function tokenFields(shape: Shape, token: string | undefined): Json {
  return shape === 'alt' ? { access_token: token, token_type: 'Bearer' } : { token };
}

/** The signed-in user with their current brand and subscription, as the state holds them now. */
function account(state: SandboxState, userId: string) {
  const user = state.platformUsers[userId];
  if (!user) throw new Unauthenticated();
  const brand = state.brands[user.current_brand_id] ?? user.brand_ids.map((id) => state.brands[id]).find((b) => b);
  const subscription = state.subscriptions[user.subscription_id];
  if (!brand || !subscription) throw new Error(`sandbox state is inconsistent for user ${userId}`);
  return { user, brand, subscription };
}

type Account = ReturnType<typeof account>;

/** The user with their brands and their role in the current brand: how every answer about a user starts. */
function userData(state: SandboxState, { user, brand }: Account, roles: PermissionDetail): Json {
  return { ...userFields(user), brands: userBrands(state, user), role: userRoleView(user, brand, roles) };
}

/** The user's roles, current brand and subscription, as each answer about the user shows the last two. */
function around(acct: Account, brand: Json, subscription: Json): Json {
  return { roles: rolesView(acct.brand, 'none'), currentBrand: { data: brand }, subscription: { data: subscription } };
}

/** The answer of the routes that show the user as `me`, with their brand and subscription as each route shows them. */
function meAnswer(state: SandboxState, acct: Account, brand: Json, subscription: Json): HandlerResult {
  return platformOk({ me: { data: userData(state, acct, 'none') }, ...around(acct, brand, subscription) });
}

/** The user with roles, full brand and subscription inside: as login shows them, or as a profile update does. */
function userWithBrand(state: SandboxState, acct: Account, answer: 'login' | 'profile'): Json {
  const profile = answer === 'profile';
  const brand = brandView(state, acct.brand, { homepage: profile });
  const subscription = subscriptionView(acct.subscription, { dates: profile ? 'iso' : 'display', usage: profile });
  return { ...userData(state, acct, 'none'), ...around(acct, brand, subscription) };
}

/** Validates and creates an account for both registration routes; the email must not be taken. */
async function createAccount(
  req: ParsedRequest,
  ctx: SandboxContext,
  origin: { source: string; source_path: string },
  withToken: boolean,
): Promise<{ userId: string; token: string | undefined }> {
  const c = new BodyChecker(req.body);
  const name = c.required('name', { trim: true, max: 255 });
  const email = c.required('email', { email: true, max: 255 });
  const password = c.required('password', { min: 8, max: 1024 });
  const country_code = c.optional('country_code', { trim: true, max: 8 }) ?? null;
  const source = c.optional('source', { trim: true, max: 255 }) ?? origin.source;
  const source_path = c.optional('source_path', { trim: true, max: 2048 }) ?? origin.source_path;
  return createUnlessTaken(c, ctx, 'platformUsers', { email, password }, (draft, hash) => {
    const user = createPlatformAccount(
      draft,
      { name, email, password: hash, country_code, source, source_path },
      ctx.now(),
      ctx.plan,
    );
    return { userId: user.id, token: withToken ? grantToken(draft, user.id, 'platform', ctx) : undefined };
  });
}

async function register(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const { userId, token } = await createAccount(req, ctx, { source: 'api', source_path: '' }, true);
  const state = ctx.store.state;
  const acct = account(state, userId);
  const user = { ...userData(state, acct, 'names'), roles: rolesView(acct.brand, 'names') };
  const brand = brandView(state, acct.brand, { roles: 'names', homepage: true });
  return platformOk({ ...tokenFields(ctx.shape, token), user: { data: user }, brand: { data: brand } }, 201);
}

async function oemRegister(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  // The internal token is checked before anything else so outsiders learn nothing about the body rules.
  const presented = req.body[INTERNAL_ACCESS_FIELD];
  const secret = ctx.internalToken;
  const given = secret !== undefined && typeof presented === 'string';
  if (!given || !sharedSecretMatches(presented, secret)) throw new HttpError(403, 'Invalid internal access token.');
  const { userId } = await createAccount(req, ctx, { source: 'oem', source_path: '' }, false);
  const state = ctx.store.state;
  const acct = account(state, userId);
  const subscription = subscriptionView(acct.subscription, { dates: 'display', usage: false });
  return meAnswer(state, acct, brandView(state, acct.brand, { homepage: false }), subscription);
}

async function login(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const userId = (await checkCredentials(req, ctx.store.state.platformUsers, ctx.passwordCost)).id;
  const tokens = await ctx.store.mutate((draft) => {
    if (!draft.platformUsers[userId]) throw new HttpError(401, INVALID_CREDENTIALS);
    return { token: grantToken(draft, userId, 'platform', ctx), cdp: grantToken(draft, userId, 'cdp', ctx) };
  });

  const state = ctx.store.state;
  return platformOk({
    ...tokenFields(ctx.shape, tokens.token),
    'cdp-token': tokens.cdp,
    user: { data: userWithBrand(state, account(state, userId), 'login') },
  });
}

async function getMe(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const userId = authenticate(req, ctx, 'platform');
  const wanted = req.query.get('current_buuid');
  if (wanted) await selectBrand(ctx, userId, wanted);
  const state = ctx.store.state;
  const acct = account(state, userId);
  const brand = pick(acct.brand, ['id', 'name', 'slug', 'timezone', 'active']);
  return meAnswer(state, acct, brand, pick(acct.subscription, ['id', 'subscription_type']));
}

/** `current_buuid` switches the current brand, persistently, among the brands the user owns. */
async function selectBrand(ctx: SandboxContext, userId: string, brandId: string): Promise<void> {
  const ownerIn = (state: SandboxState): PlatformUser => {
    const user = account(state, userId).user;
    if (!user.brand_ids.includes(brandId) || !Object.hasOwn(state.brands, brandId)) {
      // alt: a policy check refuses rather than a lookup missing.
      throw ctx.shape === 'alt'
        ? new HttpError(403, 'This action is unauthorized.')
        : new HttpError(404, 'Brand not found.');
    }
    return user;
  };
  if (ownerIn(ctx.store.state).current_brand_id === brandId) return;
  await ctx.store.mutate((draft) => {
    ownerIn(draft).current_brand_id = brandId;
  });
}

async function updateMe(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const userId = authenticate(req, ctx, 'platform');
  const c = new BodyChecker(req.body);
  // spec: empty strings are accepted, since registration itself leaves last_name empty; alt: `required`
  // refuses them, as a framework's validator does.
  const allowEmpty = ctx.shape === 'spec';
  const first_name = c.required('first_name', { trim: true, allowEmpty, max: 255 });
  const last_name = c.required('last_name', { trim: true, allowEmpty, max: 255 });
  const phone = c.required('phone', { trim: true, allowEmpty, max: 32 });
  const country_code = c.required('country_code', { trim: true, allowEmpty, max: 8 });
  c.check();

  await ctx.store.mutate((draft) => {
    const user = account(draft, userId).user;
    Object.assign(user, { first_name, last_name, phone, country_code, updated_at: ctx.now() });
  });
  const state = ctx.store.state;
  return platformOk({ me: { data: userWithBrand(state, account(state, userId), 'profile') } });
}

async function getRoles(req: ParsedRequest, ctx: SandboxContext): Promise<HandlerResult> {
  const userId = authenticate(req, ctx, 'platform');
  const target = req.params['user_id'] ?? '';
  const state = ctx.store.state;
  if (target !== userId) {
    if (Object.hasOwn(state.platformUsers, target)) throw new HttpError(403, 'You may only view your own roles.');
    throw new HttpError(404, 'User not found.');
  }
  // The roles of every brand the user belongs to (spec 1: a role per brand; each role carries its brand_id).
  const { user } = account(state, userId);
  const brands = user.brand_ids.map((id) => state.brands[id]).filter((b): b is BrandRecord => b !== undefined);
  return platformOk({ roles: { data: brands.flatMap((brand) => rolesView(brand, 'full').data) } });
}
