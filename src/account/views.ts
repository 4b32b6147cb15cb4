// The stable, documented JSON shapes of `me` and `roles` (docs/json.md), read leniently from the service's answers.
// Each view's type and its --json fields come from the function that makes it, so they cannot drift apart.
import { isObject, type Json, str, unwrapList, unwrapObject } from '../api/shape.js';

export type MeView = ReturnType<typeof meView>;
export type RoleView = ReturnType<typeof roleView>;

const orNull = (v: unknown) => str(v) ?? null;
const boolOrNull = (v: unknown) => (typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : null);
const numOrNull = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** From GET/POST /api/me: `me` holds the user; role, currentBrand and subscription sit beside it or inside it. */
export function meView(response: Json) {
  const user = unwrapObject(response.me) ?? unwrapObject(response.user) ?? {};
  const role = unwrapObject(user.role) ?? unwrapObject(response.role);
  const brand = unwrapObject(user.currentBrand) ?? unwrapObject(response.currentBrand);
  const sub = unwrapObject(user.subscription) ?? unwrapObject(response.subscription);
  return {
    id: orNull(user.id),
    first_name: orNull(user.first_name),
    last_name: orNull(user.last_name),
    email: orNull(user.email),
    phone: orNull(user.phone),
    country_code: orNull(user.country_code),
    email_verified: boolOrNull(user.email_verified),
    created_at: orNull(user.created_at),
    role: role ? { id: orNull(role.id), name: orNull(role.name), display_name: orNull(role.display_name) } : null,
    brand: brand
      ? {
          id: orNull(brand.id),
          name: orNull(brand.name),
          slug: orNull(brand.slug),
          timezone: orNull(brand.timezone),
          active: boolOrNull(brand.active),
        }
      : null,
    brands: unwrapList(user.brands).map((b) => ({ id: orNull(b.id), name: orNull(b.name), slug: orNull(b.slug) })),
    subscription: sub ? { id: orNull(sub.id), plan: orNull(sub.subscription_type), usage: usageBlocks(sub) } : null,
  };
}

export const ME_FIELDS = Object.keys(meView({})) as Array<keyof MeView>;

/** usage_main, else usage_nav, wherever the service put them (inside `info` in the spec's samples). */
function usageBlocks(sub: Json) {
  const info = isObject(sub.info) ? sub.info : {};
  const usage = [info.usage_main, sub.usage_main, info.usage_nav, sub.usage_nav].find(
    (u) => isObject(u) && Array.isArray(u.blocks),
  );
  if (!isObject(usage) || !Array.isArray(usage.blocks)) return [];
  return usage.blocks.filter(isObject).map((b) => ({
    name: str(b.name) ?? str(b.key) ?? '?',
    key: orNull(b.key),
    value: numOrNull(b.value),
    max: numOrNull(b.max),
    high: b.high === true,
  }));
}

/** The roles route's answer with each brand's name and slug from `me`; `held` only for the user's own roles. */
export function roleViews(response: Json, me: MeView, own: boolean): RoleView[] {
  const roles = unwrapList(response.roles ?? response.data ?? response);
  const brands = new Map([...me.brands, ...(me.brand ? [me.brand] : [])].map((b) => [b.id, b]));
  return roles.map((role) => roleView(role, own ? me : undefined, brands.get(orNull(role.brand_id))));
}

/** `held`: whether the user holds the role; null where the service does not say (it gives the current brand's only). */
function roleView(role: Json, me: MeView | undefined, brand: { name: string | null; slug: string | null } | undefined) {
  return {
    id: orNull(role.id),
    name: orNull(role.name),
    display_name: orNull(role.display_name),
    description: orNull(role.description),
    brand_id: orNull(role.brand_id),
    brand_name: brand?.name ?? null,
    brand_slug: brand?.slug ?? null,
    held: me ? heldInCurrentBrand(role, me) : null,
    permissions: unwrapList(role.permissions)
      .filter((p) => typeof p.name === 'string')
      .map((p) => ({
        // Names are kept exactly as given (one carries a trailing space).
        name: p.name as string,
        display_name: orNull(p.display_name),
        description: orNull(p.description),
        category: orNull(p.category),
        active: boolOrNull(p.active),
      })),
  };
}

export const ROLE_FIELDS = Object.keys(roleView({}, undefined, undefined)) as Array<keyof RoleView>;

function heldInCurrentBrand(role: Json, me: MeView): boolean | null {
  const current = me.brand?.id;
  if (!current || !me.role || orNull(role.brand_id) !== current) return null;
  return me.role.id && str(role.id) ? role.id === me.role.id : role.name === me.role.name;
}
