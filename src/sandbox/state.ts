import type { PasswordHash, StoredToken } from './crypto.js';
import type { createPlatformAccount, newBrand, newSubscription } from './platform-accounts.js';

export type Plan = 'free' | 'pro' | 'unlimited';
export const PLANS: readonly Plan[] = ['free', 'pro', 'unlimited'];

export type RoleName = 'admin' | 'manager' | 'superadmin' | 'user';
export const ROLE_NAMES: readonly RoleName[] = ['admin', 'manager', 'superadmin', 'user'];

// Stored records have the types of the functions that create them (platform-accounts.ts); timestamps are epoch ms.
export type PlatformUser = ReturnType<typeof createPlatformAccount>;
export type BrandRecord = ReturnType<typeof newBrand>;
export type HomepageRecord = BrandRecord['homepage'];
export type SubscriptionRecord = ReturnType<typeof newSubscription>;

export interface CleanUser {
  _id: string;
  name: string;
  email: string;
  password: PasswordHash;
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
