// The stable, documented JSON shapes of `me` and `roles` (docs/json.md), read leniently from the service's answers.
import { isObject, type Json, str, unwrapList, unwrapObject } from '../api/shape.js';
import { fieldsOf } from '../fields.js';

export interface UsageBlock {
  name: string;
  key: string | null;
  value: number | null;
  max: number | null;
  high: boolean;
}

export interface MeView {
  id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  country_code: string | null;
  email_verified: boolean | null;
  created_at: string | null;
  role: { id: string | null; name: string | null; display_name: string | null } | null;
  brand: {
    id: string | null;
    name: string | null;
    slug: string | null;
    timezone: string | null;
    active: boolean | null;
  } | null;
  brands: Array<{ id: string | null; name: string | null; slug: string | null }>;
  subscription: { id: string | null; plan: string | null; usage: UsageBlock[] } | null;
}

export const ME_FIELDS = fieldsOf<MeView>({
  id: true,
  first_name: true,
  last_name: true,
  email: true,
  phone: true,
  country_code: true,
  email_verified: true,
  created_at: true,
  role: true,
  brand: true,
  brands: true,
  subscription: true,
});

const orNull = (v: unknown) => str(v) ?? null;
const boolOrNull = (v: unknown) => (typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : null);
const numOrNull = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null;

/** From GET/POST /api/me: `me` holds the user; role, currentBrand and subscription sit beside it or inside it. */
export function meView(response: Json): MeView {
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

/** usage_main, else usage_nav, wherever the service put them (inside `info` in the spec's samples). */
function usageBlocks(sub: Json): UsageBlock[] {
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

export interface PermissionView {
  name: string;
  display_name: string | null;
  description: string | null;
  category: string | null;
  active: boolean | null;
}

export interface RoleView {
  id: string | null;
  name: string | null;
  display_name: string | null;
  description: string | null;
  brand_id: string | null;
  brand_name: string | null;
  brand_slug: string | null;
  /** Whether the user holds this role; null where the service does not say (it gives the current brand's only). */
  held: boolean | null;
  permissions: PermissionView[];
}

export const ROLE_FIELDS = fieldsOf<RoleView>({
  id: true,
  name: true,
  display_name: true,
  description: true,
  brand_id: true,
  brand_name: true,
  brand_slug: true,
  held: true,
  permissions: true,
});

/** The roles route's answer with each brand's name and slug from `me`; `held` only for the user's own roles. */
export function roleViews(response: Json, me: MeView, own: boolean): RoleView[] {
  const roles = unwrapList(response.roles ?? response.data ?? response);
  const brands = new Map([...me.brands, ...(me.brand ? [me.brand] : [])].map((b) => [b.id, b]));
  return roles.map((r) => ({
    id: orNull(r.id),
    name: orNull(r.name),
    display_name: orNull(r.display_name),
    description: orNull(r.description),
    brand_id: orNull(r.brand_id),
    brand_name: brands.get(orNull(r.brand_id))?.name ?? null,
    brand_slug: brands.get(orNull(r.brand_id))?.slug ?? null,
    held: own ? heldInCurrentBrand(r, me) : null,
    permissions: unwrapList(r.permissions)
      .filter((p) => typeof p.name === 'string')
      .map((p) => ({
        // Names are kept exactly as given (one carries a trailing space).
        name: p.name as string,
        display_name: orNull(p.display_name),
        description: orNull(p.description),
        category: orNull(p.category),
        active: boolOrNull(p.active),
      })),
  }));
}

function heldInCurrentBrand(role: Json, me: MeView): boolean | null {
  const current = me.brand?.id;
  if (!current || !me.role || orNull(role.brand_id) !== current) return null;
  return me.role.id && str(role.id) ? role.id === me.role.id : role.name === me.role.name;
}
