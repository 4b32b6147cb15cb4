// The fields of each command's --json output: its help lists them, the command selects them, docs/json.md names
// them (test/docs/json-fields.test.ts). Help loads this module, so it imports no implementation.

import type { CacheStats } from '../../clean/state/verdict-cache.js';
import { fieldsOf } from '../../fields.js';
import type { AllowanceView } from '../allowance.js';
import type { ServiceStatus } from '../auth.js';
import type { PermissionRow } from '../roles.js';

export const ALLOWANCE_FIELDS = fieldsOf<AllowanceView>({
  left: true,
  limit: true,
  plan: true,
  renewsAt: true,
  asOf: true,
  source: true,
  month: true,
  spentThisMachine: true,
  spentAllRunners: true,
});

export const AUTH_STATUS_FIELDS = fieldsOf<ServiceStatus>({
  service: true,
  url: true,
  signedIn: true,
  verified: true,
  email: true,
  userId: true,
  tokenSource: true,
  tokenStorage: true,
  token: true,
  acceptedAt: true,
  problem: true,
});

export const CACHE_STATS_FIELDS = fieldsOf<CacheStats>({ entries: true, oldest: true, newest: true, bytes: true });

export const PERMISSION_FIELDS = fieldsOf<PermissionRow>({
  name: true,
  display_name: true,
  category: true,
  description: true,
  roles: true,
});

export { VERIFY_FIELDS } from '../../library/verify-fields.js';
