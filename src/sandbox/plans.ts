import type { Plan } from './state.js';

// The sandbox invents URLs for things it does not serve; `.invalid` (RFC 6761) can never
// resolve, so nobody mistakes them for a live site or pays through them.
export const SANDBOX_DOMAIN = 'sandbox.invalid';
export const PLATFORM_NAME = 'Mailclean Sandbox';

export function siteUrl(slug: string): string {
  return `https://${slug}.sites.${SANDBOX_DOMAIN}`;
}

export function assetUrl(path: string): string {
  return `https://assets.${SANDBOX_DOMAIN}/${path}`;
}

const PLAN_INFO: Record<Plan, { name: string; description: string; usd: string; inr: string }> = {
  free: { name: 'Free', description: 'Try the platform with small lists.', usd: '0', inr: '0' },
  pro: { name: 'Pro', description: 'For growing lists and regular campaigns.', usd: '29', inr: '2399' },
  unlimited: { name: 'Unlimited', description: 'No monthly cleaning allowance.', usd: '99', inr: '7999' },
};

function price(plan: Plan, currency: 'USD' | 'INR', value: string) {
  return {
    currency,
    currency_symbol: currency === 'USD' ? '$' : '\u20b9',
    value,
    frequency: 'month' as const,
    payment_link: `https://pay.${SANDBOX_DOMAIN}/checkout/${plan}?currency=${currency.toLowerCase()}`,
  };
}

export function planEntry(plan: Plan) {
  const info = PLAN_INFO[plan];
  return {
    key: plan,
    details: { name: info.name, description: info.description },
    amounts: {
      default: price(plan, 'USD', info.usd),
      US: price(plan, 'USD', info.usd),
      IN: price(plan, 'INR', info.inr),
    },
  };
}

export function allPlans() {
  return (['free', 'pro', 'unlimited'] as const).map(planEntry);
}

/**
 * Maxima of the platform usage blocks. `email_cleaning` mirrors the cleaning service's monthly
 * allowance (spec 8); the highest plan has none, shown as max 0 with a key the CLI can recognise.
 */
export const PLAN_LIMITS: Record<Plan, { contacts: number; emails: number; email_cleaning: number }> = {
  free: { contacts: 1000, emails: 10000, email_cleaning: 50 },
  pro: { contacts: 10000, emails: 100000, email_cleaning: 10000 },
  unlimited: { contacts: 100000, emails: 1000000, email_cleaning: 0 },
};

function block(name: string, key: string, max: number, value: number) {
  // "high" flags a counter at 80% of its maximum or more, where the upgrade prompt starts to matter.
  return { name, max, value, high: max > 0 && value >= max * 0.8, key };
}

export function usage(plan: Plan, which: 'nav' | 'main') {
  const limits = PLAN_LIMITS[plan];
  const blocks = [block('Contacts', 'contacts', limits.contacts, 0)];
  if (which === 'main') {
    blocks.push(block('Emails sent', 'emails', limits.emails, 0));
    blocks.push(block('Emails cleaned', 'email_cleaning', limits.email_cleaning, 0));
  }
  return {
    plan_name: PLAN_INFO[plan].name,
    blocks,
    cta: {
      text: plan === 'unlimited' ? 'Manage plan' : 'Upgrade',
      link: `https://pay.${SANDBOX_DOMAIN}/plans`,
      visible: plan !== 'unlimited',
    },
  };
}
