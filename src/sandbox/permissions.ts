import type { RoleName } from './state.js';

// Transcribed from spec 2.8 in its order. Names are data, kept verbatim, including the trailing space the
// platform really has in `integration-get-all-containers `.

/** `family('contact', 'create get')` -> `contact-create`, `contact-get`. */
const family = (prefix: string, actions: string): string[] => actions.split(' ').map((a) => `${prefix}-${a}`);
/** `ofKind('tweet', 'get update')` -> `container-get-tweet`, `container-update-tweet`. */
const ofKind = (kind: string, actions: string): string[] => actions.split(' ').map((a) => `container-${a}-${kind}`);

const CONTAINER_KINDS = ['campaign', 'form', 'webpage', 'workflow'];
const PER_KIND_ACTIONS =
  'show-all get update delete sync connected activate deactivate store-media get-templates subscribe';
const SOCIAL_CONTAINER_ACTIONS = 'create show-all get update delete activate';

const SHARED: readonly string[] = [
  'account-profile',
  'verification.resend',
  ...family('brand', 'all-media store-media clear-media'),
  ...family('contact', 'create get update delete get-all bulk-create'),
  ...family(
    'recipe',
    'get-all get delete activate deactivate get-templates mark-template demark-template subscribe get-all-steps ' +
      'get-step update-step step-get-all-instructions step-get-instruction media-store get-slug analytics',
  ),
  ...family('container', 'get-types show-all'),
  ...ofKind('audience', 'create show-all get update delete'),
  'audience-get-stats',
  ...CONTAINER_KINDS.flatMap((kind) => ofKind(kind, PER_KIND_ACTIONS)),
  ...family('campaign', 'get-stats send-test status status-all'),
  ...family('form', 'get-stats get-param-types create-param get-param get-all-param update-param delete-param'),
  'webpage-get-stats',
  ...ofKind('workflow', 'mark-template demark-template'),
  ...family('workflow', 'get-node-type get-all-nodes create-node get-node update-node delete-node'),
  'delay-get-types',
  ...ofKind('delay', 'show-all get update delete activate'),
  'importjobs-index',
  'integration-get-types',
  'importjobs-status',
  ...family('integration', 'create get-all'),
  'integration-get-all-containers ',
  ...family('fbpages', 'get-all get get-posts update delete'),
  ...ofKind('fbpost', SOCIAL_CONTAINER_ACTIONS),
  'fbpost-get-tracking-links',
  ...family('twitter', 'get-all get get-tweets update delete'),
  ...ofKind('tweet', SOCIAL_CONTAINER_ACTIONS),
  ...family('tweet', 'get-tracking-links'),
  'container-store-media-tweet',
  'tweet-add-brand-media',
  ...family('linkedin', 'get-all get get-shares update delete'),
  ...ofKind('linkedin_share', SOCIAL_CONTAINER_ACTIONS),
  ...family('linkedin-share', 'get-tracking-links add-brand-media'),
  'container-store-media-linkedin_share',
  'payment-list-plans',
  'payment-verify',
  'subscription-get',
  ...family('segment', 'create get get-all update delete handle get-fields get-operators'),
  ...CONTAINER_KINDS.map((kind) => `container-create-${kind}`),
];

/** Held by admin, manager and superadmin, not by user. */
const EDITOR_EXTRAS: readonly string[] = [
  ...['campaign', 'form', 'webpage'].flatMap((kind) => ofKind(kind, 'update-tags mark-template demark-template')),
  ...family(
    'recipe',
    'create update create-step delete-step reorder-steps update-tags mark-listing demark-listing mark-public ' +
      'demark-public step-create-instruction step-update-instruction step-delete-instruction',
  ),
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

/** Each category with the first words of the permissions in it. */
const CATEGORY_PREFIXES: Readonly<Record<string, string>> = {
  Account: 'account verification',
  Media: 'brand',
  Contact: 'contact',
  Recipe: 'recipe',
  Audience: 'audience',
  Campaign: 'campaign',
  Form: 'form',
  Webpage: 'webpage',
  Workflow: 'workflow',
  Delay: 'delay',
  Integration: 'importjobs integration',
  Social: 'fbpages fbpost twitter tweet linkedin',
  Payment: 'payment subscription',
  Segment: 'segment',
};
const PREFIX_CATEGORY = new Map(
  Object.entries(CATEGORY_PREFIXES).flatMap(([category, prefixes]) => prefixes.split(' ').map((p) => [p, category])),
);

export function permissionCategory(name: string): string {
  const trimmed = name.trim();
  if (trimmed.startsWith('container-')) {
    const kind = KIND_CATEGORY.find(([k]) => trimmed.endsWith(`-${k}`));
    return kind ? kind[1] : 'Container';
  }
  const prefix = trimmed.split(/[-.]/, 1)[0] ?? '';
  return PREFIX_CATEGORY.get(prefix) ?? 'General';
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
