import type { PasswordHash, StoredToken } from './crypto.js';

export type Plan = 'free' | 'pro' | 'unlimited';
export const PLANS: readonly Plan[] = ['free', 'pro', 'unlimited'];

export type RoleName = 'admin' | 'manager' | 'superadmin' | 'user';
export const ROLE_NAMES: readonly RoleName[] = ['admin', 'manager', 'superadmin', 'user'];

/** Timestamps are epoch milliseconds; each view formats them the way its route shows them. */
export interface PlatformUser {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  country_code: string | null;
  email_verified: boolean;
  onboarding: { pages: boolean; emails: boolean; recipes: boolean; homepage: boolean };
  source: string;
  source_path: string;
  created_at: number;
  updated_at: number;
  password: PasswordHash;
  brand_ids: string[];
  current_brand_id: string;
  role_by_brand: Record<string, RoleName>;
  subscription_id: string;
}

export interface BrandSettings {
  lists: { double_optin: boolean };
  general: { gdpr: boolean; language: string };
  branding: { forms: boolean; webpages: boolean; campaigns: boolean };
  recaptcha: { forms: boolean; webpages: boolean };
  configuration: { campaing_allowed_contact_cleaning: number[] };
  email_tracking: { unsubscribe: boolean; open_tracking: boolean; click_tracking: boolean };
}

export interface HomepageRecord {
  id: string;
  form_id: string;
  form_slug: string;
  name_param_id: string;
  email_param_id: string;
  preview_key: string;
  created_at: number;
}

export interface BrandRecord {
  id: string;
  owner_id: string;
  name: string;
  slug: string;
  description: string | null;
  onboarded: boolean;
  active: boolean;
  website: string | null;
  domain: string | null;
  country: string | null;
  address: string | null;
  state: string | null;
  city: string | null;
  zip_code: string | null;
  domain_verified: boolean;
  timezone: string;
  country_code: string | null;
  industry_code: string | null;
  site_code: string | null;
  site_code_verified: boolean;
  site_public: boolean;
  settings: BrandSettings;
  p_key: string;
  api_key: string;
  social: Record<string, string>;
  /** In the order admin, manager, superadmin, user; permissions come from permissions.ts by name. */
  roles: { id: string; name: RoleName }[];
  homepage: HomepageRecord;
  created_at: number;
}

export interface SubscriptionRecord {
  id: string;
  user_id: string;
  payment_vendor: string;
  subscription_type: Plan;
  start_date: string;
  end_date: string;
  plan_dates: string;
  subscription_url: string | null;
  created_at: number;
  updated_at: number;
}

export interface CleanUser {
  _id: string;
  name: string;
  email: string;
  password: PasswordHash;
  /** Read by the clean route for the monthly allowance. */
  plan: Plan;
  createdAt: number;
  updatedAt: number;
}

/** Counters of the clean route for one cleaning user; results are never kept, as the file is rewritten per request. */
export interface CleanUsage {
  /** Arrival times (epoch ms, ascending) of admitted requests, pruned to the rate window. */
  arrivals: number[];
  /** `YYYY-MM` (UTC) of the month `used` counts; a different month means nothing used yet. */
  month: string;
  /** Addresses charged in `month`. */
  used: number;
}

export interface SandboxState {
  version: 1;
  platformUsers: Record<string, PlatformUser>;
  brands: Record<string, BrandRecord>;
  subscriptions: Record<string, SubscriptionRecord>;
  cleanUsers: Record<string, CleanUser>;
  /** Keyed by the token id (the part before the dot). */
  tokens: Record<string, StoredToken>;
  /** Keyed by cleaning user id. */
  cleanUsage: Record<string, CleanUsage>;
}

export function emptyState(): SandboxState {
  return { version: 1, platformUsers: {}, brands: {}, subscriptions: {}, cleanUsers: {}, tokens: {}, cleanUsage: {} };
}

/** Accepts a parsed state file; collections missing from an older file are added empty, so none needs migrating. */
export function normalizeState(raw: unknown): SandboxState {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not a JSON object');
  const obj = raw as Record<string, unknown>;
  if (obj['version'] !== 1) throw new Error(`unsupported state version ${JSON.stringify(obj['version'])}`);
  const state = { ...emptyState(), ...obj } as SandboxState;
  for (const key of ['platformUsers', 'brands', 'subscriptions', 'cleanUsers', 'tokens', 'cleanUsage'] as const) {
    const value: unknown = state[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error(`"${key}" is not an object`);
  }
  return state;
}

export function findByEmail<T extends { email: string }>(table: Record<string, T>, email: string): T | undefined {
  const wanted = email.toLowerCase();
  return Object.values(table).find((u) => u.email.toLowerCase() === wanted);
}
