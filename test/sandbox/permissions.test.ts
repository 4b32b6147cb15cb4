import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { call, registerUser } from './helpers.js';

// Written out by hand from spec 2.8, independently of src/sandbox/permissions.ts, so a slip in
// either one shows up here. The per-kind line of the spec is expanded literally.

const SHARED = [
  // account, media, contacts
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
  // recipes
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
  // containers and audiences
  'container-get-types',
  'container-show-all',
  'container-create-audience',
  'container-show-all-audience',
  'container-get-audience',
  'container-update-audience',
  'container-delete-audience',
  'audience-get-stats',
  // campaign
  'container-show-all-campaign',
  'container-get-campaign',
  'container-update-campaign',
  'container-delete-campaign',
  'container-sync-campaign',
  'container-connected-campaign',
  'container-activate-campaign',
  'container-deactivate-campaign',
  'container-store-media-campaign',
  'container-get-templates-campaign',
  'container-subscribe-campaign',
  // form
  'container-show-all-form',
  'container-get-form',
  'container-update-form',
  'container-delete-form',
  'container-sync-form',
  'container-connected-form',
  'container-activate-form',
  'container-deactivate-form',
  'container-store-media-form',
  'container-get-templates-form',
  'container-subscribe-form',
  // webpage
  'container-show-all-webpage',
  'container-get-webpage',
  'container-update-webpage',
  'container-delete-webpage',
  'container-sync-webpage',
  'container-connected-webpage',
  'container-activate-webpage',
  'container-deactivate-webpage',
  'container-store-media-webpage',
  'container-get-templates-webpage',
  'container-subscribe-webpage',
  // workflow
  'container-show-all-workflow',
  'container-get-workflow',
  'container-update-workflow',
  'container-delete-workflow',
  'container-sync-workflow',
  'container-connected-workflow',
  'container-activate-workflow',
  'container-deactivate-workflow',
  'container-store-media-workflow',
  'container-get-templates-workflow',
  'container-subscribe-workflow',
  // also shared
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
  // workflow nodes
  'workflow-get-node-type',
  'workflow-get-all-nodes',
  'workflow-create-node',
  'workflow-get-node',
  'workflow-update-node',
  'workflow-delete-node',
  // delay
  'delay-get-types',
  'container-show-all-delay',
  'container-get-delay',
  'container-update-delay',
  'container-delete-delay',
  'container-activate-delay',
  // import and integration; note the trailing space
  'importjobs-index',
  'integration-get-types',
  'importjobs-status',
  'integration-create',
  'integration-get-all',
  'integration-get-all-containers ',
  // facebook
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
  // twitter
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
  // linkedin
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
  // payments and segments
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
  // creation
  'container-create-campaign',
  'container-create-form',
  'container-create-webpage',
  'container-create-workflow',
];

const EXTRA = [
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

const EXPECTED: Record<string, string[]> = {
  admin: [...SHARED, ...EXTRA],
  manager: [...SHARED, ...EXTRA],
  superadmin: [...SHARED, ...EXTRA],
  user: [...SHARED],
};

const sorted = (names: string[]): string[] => [...names].sort();

const sandboxes = useSandboxes();
let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandboxes.start();
});

describe('roles created at registration (spec 2.8)', () => {
  it('has a hand-written list that is itself consistent', () => {
    expect(new Set(SHARED).size).toBe(SHARED.length);
    expect(SHARED).toHaveLength(167);
    expect(EXTRA).toHaveLength(22);
    expect(EXTRA.filter((p) => SHARED.includes(p))).toEqual([]);
  });

  it('gives each role exactly the permissions the spec lists', async () => {
    const { reply } = await registerUser(sb.url);
    const roles = reply.json.response.brand.data.roles.data as {
      name: string;
      permissions: { data: { name: string }[] };
    }[];
    expect(roles.map((r) => r.name)).toEqual(['admin', 'manager', 'superadmin', 'user']);
    for (const role of roles) {
      const names = role.permissions.data.map((p) => p.name);
      expect(new Set(names).size, `${role.name} has duplicates`).toBe(names.length);
      expect(sorted(names), role.name).toEqual(sorted(EXPECTED[role.name] ?? []));
    }
  });

  it('keeps the trailing space of integration-get-all-containers', async () => {
    const { reply } = await registerUser(sb.url);
    for (const role of reply.json.response.brand.data.roles.data as { permissions: { data: { name: string }[] } }[]) {
      const names = role.permissions.data.map((p) => p.name);
      expect(names).toContain('integration-get-all-containers ');
      expect(names).not.toContain('integration-get-all-containers');
    }
  });

  it('gives exactly 22 permissions to admin, manager and superadmin but not to user', async () => {
    const { reply } = await registerUser(sb.url);
    const byRole = new Map<string, Set<string>>(
      (reply.json.response.brand.data.roles.data as { name: string; permissions: { data: { name: string }[] } }[]).map(
        (r) => [r.name, new Set(r.permissions.data.map((p) => p.name))],
      ),
    );
    const user = byRole.get('user') ?? new Set<string>();
    for (const name of ['admin', 'manager', 'superadmin']) {
      const extra = [...(byRole.get(name) ?? [])].filter((p) => !user.has(p));
      expect(sorted(extra), name).toEqual(sorted(EXTRA));
    }
    // Nothing the user holds is missing from the others.
    for (const p of user)
      for (const name of ['admin', 'manager', 'superadmin']) expect(byRole.get(name)?.has(p)).toBe(true);
  });

  it('serves the same names, with details, through the roles route', async () => {
    const { token, userId } = await registerUser(sb.url);
    const res = await call(sb.url, 'GET', `/api/user/${userId}/roles`, { token });
    for (const role of res.json.response.roles.data as { name: string; permissions: { data: { name: string }[] } }[]) {
      expect(sorted(role.permissions.data.map((p) => p.name)), role.name).toEqual(sorted(EXPECTED[role.name] ?? []));
    }
  });
});
