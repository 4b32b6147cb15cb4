import { randomUUID } from 'node:crypto';
import { type PasswordHash, randomHex, randomKey } from './crypto.js';
import { type Plan, ROLE_NAMES, type RoleName, type SandboxState } from './state.js';

const uuid = (): string => randomUUID();

export interface NewAccount {
  name: string;
  email: string;
  password: PasswordHash;
  country_code: string | null;
  source: string;
  source_path: string;
}

const SOCIAL_FIELDS = 'blog email medium reddit twitter website youtube facebook linkedin snapchat whatsapp instagram';

/** `Ada Lovelace's brand` -> `ada-lovelaces-brand-3f9a2c`; the suffix keeps slugs unique without a lookup. */
export function brandSlug(brandName: string): string {
  const base = brandName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${base || 'brand'}-${randomHex(3)}`;
}

/**
 * What registration creates: the user, their brand with its four roles and default homepage,
 * and a subscription. The caller has checked that the email is free.
 */
export function createPlatformAccount(state: SandboxState, input: NewAccount, now: number, plan: Plan) {
  const userId = uuid();
  const brand = newBrand(userId, `${input.name}'s brand`, input.country_code, now);
  const subscription = newSubscription(userId, plan, now);
  const user = {
    id: userId,
    first_name: input.name,
    last_name: '',
    email: input.email,
    phone: null as string | null,
    country_code: input.country_code,
    email_verified: false,
    onboarding: { pages: false, emails: false, recipes: false, homepage: false },
    source: input.source,
    source_path: input.source_path,
    created_at: now,
    updated_at: now,
    password: input.password,
    brand_ids: [brand.id],
    current_brand_id: brand.id,
    role_by_brand: { [brand.id]: 'admin' } as Record<string, RoleName>,
    subscription_id: subscription.id,
  };

  state.platformUsers[user.id] = user;
  state.brands[brand.id] = brand;
  state.subscriptions[subscription.id] = subscription;
  return user;
}

export function newBrand(ownerId: string, name: string, countryCode: string | null, now: number) {
  return {
    id: uuid(),
    owner_id: ownerId,
    name,
    slug: brandSlug(name),
    description: null,
    onboarded: false,
    active: true,
    ...brandProfile(countryCode),
    p_key: `pk_${randomKey(18)}`,
    api_key: `sk_${randomKey(32)}`,
    social: Object.fromEntries(SOCIAL_FIELDS.split(' ').map((f) => [f, ''])),
    roles: ROLE_NAMES.map((role) => ({ id: uuid(), name: role })),
    homepage: newHomepage(now),
    created_at: now,
  };
}

/** The brand's profile: what the platform lets its owner fill in, shown as it is stored. */
export function brandProfile(countryCode: string | null) {
  return {
    website: null,
    domain: null,
    country: null,
    address: null,
    state: null,
    city: null,
    zip_code: null,
    domain_verified: false,
    timezone: 'UTC',
    country_code: countryCode,
    industry_code: null,
    site_code: null,
    site_code_verified: false,
    site_public: false,
    settings: {
      lists: { double_optin: false },
      general: { gdpr: false, language: 'en_US' },
      branding: { forms: true, webpages: true, campaigns: true },
      recaptcha: { forms: false, webpages: false },
      configuration: { campaing_allowed_contact_cleaning: [1] },
      email_tracking: { unsubscribe: true, open_tracking: true, click_tracking: true },
    },
  };
}

function newHomepage(now: number) {
  return {
    id: uuid(),
    form_id: uuid(),
    form_slug: `homepage-form-${randomHex(3)}`,
    name_param_id: uuid(),
    email_param_id: uuid(),
    preview_key: randomHex(16),
    created_at: now,
  };
}

export function newSubscription(userId: string, plan: Plan, now: number) {
  return {
    id: uuid(),
    user_id: userId,
    payment_vendor: 'sandbox',
    subscription_type: plan,
    start_date: '',
    end_date: '',
    plan_dates: '',
    subscription_url: null,
    created_at: now,
    updated_at: now,
  };
}
