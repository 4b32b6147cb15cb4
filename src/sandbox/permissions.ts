import type { RoleName } from './state.js';

// Transcribed from spec 2.8 in the order it lists them. Names are data, so keep them verbatim,
// including the trailing space the platform really has in `integration-get-all-containers `.

const CONTAINER_KINDS = ['campaign', 'form', 'webpage', 'workflow'] as const;
const PER_KIND_ACTIONS = [
  'show-all',
  'get',
  'update',
  'delete',
  'sync',
  'connected',
  'activate',
  'deactivate',
  'store-media',
  'get-templates',
  'subscribe',
] as const;

const SHARED: readonly string[] = [
  'account-profile',
  'verification.resend',
  'brand-all-media',
  'brand-store-media',
  'brand-clear-media',
  'contact-create',
  'contact-get',
  'contact-update',
  'contact-delete',
  'contact-get-all',
  'contact-bulk-create',

  'recipe-get-all',
  'recipe-get',
  'recipe-delete',
  'recipe-activate',
  'recipe-deactivate',
  'recipe-get-templates',
  'recipe-mark-template',
  'recipe-demark-template',
  'recipe-subscribe',
  'recipe-get-all-steps',
  'recipe-get-step',
  'recipe-update-step',
  'recipe-step-get-all-instructions',
  'recipe-step-get-instruction',
  'recipe-media-store',
  'recipe-get-slug',
  'recipe-analytics',

  'container-get-types',
  'container-show-all',
  'container-create-audience',
  'container-show-all-audience',
  'container-get-audience',
  'container-update-audience',
  'container-delete-audience',
  'audience-get-stats',

  ...CONTAINER_KINDS.flatMap((kind) => PER_KIND_ACTIONS.map((action) => `container-${action}-${kind}`)),

  'campaign-get-stats',
  'campaign-send-test',
  'campaign-status',
  'campaign-status-all',
  'form-get-stats',
  'form-get-param-types',
  'form-create-param',
  'form-get-param',
  'form-get-all-param',
  'form-update-param',
  'form-delete-param',
  'webpage-get-stats',
  'container-mark-template-workflow',
  'container-demark-template-workflow',

  'workflow-get-node-type',
  'workflow-get-all-nodes',
  'workflow-create-node',
  'workflow-get-node',
  'workflow-update-node',
  'workflow-delete-node',

  'delay-get-types',
  'container-show-all-delay',
  'container-get-delay',
  'container-update-delay',
  'container-delete-delay',
  'container-activate-delay',

  'importjobs-index',
  'integration-get-types',
  'importjobs-status',
  'integration-create',
  'integration-get-all',
  'integration-get-all-containers ',

  'fbpages-get-all',
  'fbpages-get',
  'fbpages-get-posts',
  'fbpages-update',
  'fbpages-delete',
  'container-create-fbpost',
  'container-show-all-fbpost',
  'container-get-fbpost',
  'container-update-fbpost',
  'container-delete-fbpost',
  'container-activate-fbpost',
  'fbpost-get-tracking-links',

  'twitter-get-all',
  'twitter-get',
  'twitter-get-tweets',
  'twitter-update',
  'twitter-delete',
  'container-create-tweet',
  'container-show-all-tweet',
  'container-get-tweet',
  'container-update-tweet',
  'container-delete-tweet',
  'container-activate-tweet',
  'tweet-get-tracking-links',
  'container-store-media-tweet',
  'tweet-add-brand-media',

  'linkedin-get-all',
  'linkedin-get',
  'linkedin-get-shares',
  'linkedin-update',
  'linkedin-delete',
  'container-create-linkedin_share',
  'container-show-all-linkedin_share',
  'container-get-linkedin_share',
  'container-update-linkedin_share',
  'container-delete-linkedin_share',
  'container-activate-linkedin_share',
  'linkedin-share-get-tracking-links',
  'linkedin-share-add-brand-media',
  'container-store-media-linkedin_share',

  'payment-list-plans',
  'payment-verify',
  'subscription-get',
  'segment-create',
  'segment-get',
  'segment-get-all',
  'segment-update',
  'segment-delete',
  'segment-handle',
  'segment-get-fields',
  'segment-get-operators',

  'container-create-campaign',
  'container-create-form',
  'container-create-webpage',
  'container-create-workflow',
];

/** Held by admin, manager and superadmin, not by user. */
const EDITOR_EXTRAS: readonly string[] = [
  'container-update-tags-campaign',
  'container-mark-template-campaign',
  'container-demark-template-campaign',
  'container-update-tags-form',
  'container-mark-template-form',
  'container-demark-template-form',
  'container-update-tags-webpage',
  'container-mark-template-webpage',
  'container-demark-template-webpage',
  'recipe-create',
  'recipe-update',
  'recipe-create-step',
  'recipe-delete-step',
  'recipe-reorder-steps',
  'recipe-update-tags',
  'recipe-mark-listing',
  'recipe-demark-listing',
  'recipe-mark-public',
  'recipe-demark-public',
  'recipe-step-create-instruction',
  'recipe-step-update-instruction',
  'recipe-step-delete-instruction',
];

const WITH_EXTRAS: readonly string[] = Object.freeze([...SHARED, ...EDITOR_EXTRAS]);

export const ROLE_PERMISSIONS: Readonly<Record<RoleName, readonly string[]>> = Object.freeze({
  admin: WITH_EXTRAS,
  manager: WITH_EXTRAS,
  superadmin: WITH_EXTRAS,
  user: Object.freeze([...SHARED]),
});

export const ROLE_DETAILS: Readonly<Record<RoleName, { display_name: string; description: string }>> = {
  admin: { display_name: 'Admin', description: 'Manages the brand, its content and its members.' },
  manager: { display_name: 'Manager', description: 'Creates and manages content of the brand.' },
  superadmin: { display_name: 'Super Admin', description: 'Full access to the brand.' },
  user: { display_name: 'User', description: 'Works with existing content of the brand.' },
};

export interface Permission {
  name: string;
  display_name: string;
  description: string;
  category: string;
  active: 1;
}

// Container permissions end with the kind of container they act on; longest first so
// `linkedin_share` wins over shorter suffixes.
const KIND_CATEGORY: readonly [string, string][] = [
  ['linkedin_share', 'Social'],
  ['workflow', 'Workflow'],
  ['campaign', 'Campaign'],
  ['audience', 'Audience'],
  ['webpage', 'Webpage'],
  ['fbpost', 'Social'],
  ['tweet', 'Social'],
  ['delay', 'Delay'],
  ['form', 'Form'],
];

const PREFIX_CATEGORY: Readonly<Record<string, string>> = {
  account: 'Account',
  verification: 'Account',
  brand: 'Media',
  contact: 'Contact',
  recipe: 'Recipe',
  audience: 'Audience',
  campaign: 'Campaign',
  form: 'Form',
  webpage: 'Webpage',
  workflow: 'Workflow',
  delay: 'Delay',
  importjobs: 'Integration',
  integration: 'Integration',
  fbpages: 'Social',
  fbpost: 'Social',
  twitter: 'Social',
  tweet: 'Social',
  linkedin: 'Social',
  payment: 'Payment',
  subscription: 'Payment',
  segment: 'Segment',
};

export function permissionCategory(name: string): string {
  const trimmed = name.trim();
  if (trimmed.startsWith('container-')) {
    const kind = KIND_CATEGORY.find(([k]) => trimmed.endsWith(`-${k}`));
    return kind ? kind[1] : 'Container';
  }
  const prefix = trimmed.split(/[-.]/, 1)[0] ?? '';
  return PREFIX_CATEGORY[prefix] ?? 'General';
}

/** `contact-bulk-create` -> `Contact Bulk Create`. */
export function permissionDisplayName(name: string): string {
  return name
    .trim()
    .split(/[-._]/)
    .filter((w) => w !== '')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

export function permissionDetails(name: string): Permission {
  return {
    name,
    display_name: permissionDisplayName(name),
    description: '',
    category: permissionCategory(name),
    active: 1,
  };
}
