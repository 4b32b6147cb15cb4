import { homepageView } from './homepage-shape.js';
import { permissionDetails, ROLE_DETAILS, ROLE_PERMISSIONS } from './permissions.js';
import { allPlans, assetUrl, PLATFORM_NAME, planEntry, siteUrl, usage } from './plans.js';
import { brandProfile } from './platform-accounts.js';
import type { BrandRecord, PlatformUser, RoleName, SandboxState, SubscriptionRecord } from './state.js';
import { displayTime, isoMicros } from './time.js';

// Views turn stored records into the shapes of spec 2.2-2.9. Each route picks the variant
// the spec shows for it; see docs/sandbox-failures.md for the choices where it is silent.

export type Json = Record<string, unknown>;

/** The named fields of a record, in the order named: the order each view's JSON shows them in. */
export function pick<T extends object, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, record[field]])) as Pick<T, K>;
}

/** none: no `permissions` key; names: `{name}` items (registration); full: permission objects (roles route). */
export type PermissionDetail = 'none' | 'names' | 'full';

export function roleView(brand: BrandRecord, role: { id: string; name: RoleName }, detail: PermissionDetail): Json {
  const { display_name, description } = ROLE_DETAILS[role.name];
  const view: Json = { id: role.id, name: role.name, display_name, brand_id: brand.id, description };
  const names = ROLE_PERMISSIONS[role.name];
  if (detail === 'names') view['permissions'] = { data: names.map((name) => ({ name })) };
  if (detail === 'full') view['permissions'] = { data: names.map(permissionDetails) };
  return view;
}

export function rolesView(brand: BrandRecord, detail: PermissionDetail): { data: Json[] } {
  return { data: brand.roles.map((r) => roleView(brand, r, detail)) };
}

export function userRoleView(user: PlatformUser, brand: BrandRecord, detail: PermissionDetail): { data: Json } {
  const name = user.role_by_brand[brand.id] ?? (brand.owner_id === user.id ? 'admin' : 'user');
  const role = brand.roles.find((r) => r.name === name) ?? { id: '', name };
  return { data: roleView(brand, role, detail) };
}

export function brandSummary(brand: BrandRecord): Json {
  return {
    ...pick(brand, ['id', 'name', 'slug', 'description']),
    brand_url: siteUrl(brand.slug),
    logo: { data: [] },
    favicon: { data: [] },
    ...pick(brand, ['onboarded', 'active']),
  };
}

export function brandView(
  state: SandboxState,
  brand: BrandRecord,
  extra: { roles?: PermissionDetail; homepage: boolean },
): Json {
  const owner = state.platformUsers[brand.owner_id];
  const person = { first_name: owner?.first_name ?? '', last_name: owner?.last_name ?? '', email: owner?.email ?? '' };
  const view: Json = {
    ...brandSummary(brand),
    ...pick(brand, PROFILE_FIELDS),
    conf: { logo: assetUrl('logo.svg'), favicon: assetUrl('favicon.ico'), platform_name: PLATFORM_NAME },
    p_key: brand.p_key,
    pusers: owner ? [{ uuid: owner.id, ...person }] : [],
    meta: { social: brand.social },
    all_plans: allPlans(),
    api_key: brand.api_key,
    owner: person,
  };
  if (extra.roles !== undefined) view['roles'] = rolesView(brand, extra.roles);
  if (extra.homepage) view['homepage'] = { data: homepageView(brand) };
  return view;
}

const PROFILE_FIELDS = Object.keys(brandProfile(null)) as (keyof BrandRecord)[];

export function subscriptionView(sub: SubscriptionRecord, opts: { dates: 'display' | 'iso'; usage: boolean }): Json {
  const plan = planEntry(sub.subscription_type);
  const info: Json = { details: plan.details, amounts: plan.amounts };
  if (opts.usage) {
    info['usage_nav'] = usage(sub.subscription_type, 'nav');
    info['usage_main'] = usage(sub.subscription_type, 'main');
  }
  const fmt = opts.dates === 'display' ? displayTime : isoMicros;
  return {
    ...pick(sub, ['id', 'payment_vendor', 'subscription_type']),
    info,
    ...pick(sub, ['start_date', 'end_date', 'plan_dates', 'subscription_url']),
    created_at: fmt(sub.created_at),
    updated_at: fmt(sub.updated_at),
    meta: null,
  };
}

/** The user's own fields (spec 2.2) without any related records. */
export function userFields(user: PlatformUser): Json {
  return {
    ...pick(user, ['id', 'first_name', 'last_name', 'email', 'phone', 'onboarding']),
    ...pick(user, ['country_code', 'email_verified', 'source', 'source_path']),
    created_at: isoMicros(user.created_at),
  };
}

export function userBrands(state: SandboxState, user: PlatformUser): { data: Json[] } {
  const brands = user.brand_ids.map((id) => state.brands[id]).filter((b): b is BrandRecord => b !== undefined);
  return { data: brands.map(brandSummary) };
}
