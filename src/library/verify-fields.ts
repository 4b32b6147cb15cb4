// The fields of a verify result, in order: the library's rows and `verify --json` (whose help lists them, so this
// module imports nothing but types).
import { fieldsOf } from '../fields.js';
import type { VerifyResult } from './types.js';

export const VERIFY_FIELDS = fieldsOf<VerifyResult>({
  address: true,
  status: true,
  reason: true,
  valid: true,
  disposable: true,
  validDomain: true,
  free: true,
  role: true,
  provider: true,
  suggestion: true,
  serviceStatus: true,
  checker: true,
  fromCache: true,
  checkedAt: true,
});
