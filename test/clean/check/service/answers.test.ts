import { describe, expect, it } from 'vitest';
import { recordVerdict } from '../../../../src/clean/check/service/answers.js';

const RUN_TIME = '2026-12-07T10:00:00.000Z';
const status = { valid: true, isDisposable: false, isValidDomain: true };

describe('recordVerdict', () => {
  it("keeps the service's time of a record, which the cache ages the answer by", () => {
    const record = { email: 'a@x.com', emailStatus: status, updatedAt: '2026-11-30T08:00:00Z' };
    expect(recordVerdict('a@x.com', record, RUN_TIME).checkedAt).toBe('2026-11-30T08:00:00.000Z');
    const created = { email: 'a@x.com', email_status: status, createdAt: '2026-12-01T00:00:00Z' };
    expect(recordVerdict('a@x.com', created, RUN_TIME).checkedAt).toBe('2026-12-01T00:00:00.000Z');
    for (const epoch of [1_764_547_200, 1_764_547_200_000]) {
      const numbered = { email: 'a@x.com', emailStatus: status, updatedAt: epoch };
      expect(recordVerdict('a@x.com', numbered, RUN_TIME).checkedAt).toBe('2025-12-01T00:00:00.000Z');
    }
  });

  it("takes the run's clock where the service's time is not one", () => {
    for (const updatedAt of ['', 'yesterday', 0, -5, null, true, '2026-13-45']) {
      const record = { email: 'a@x.com', emailStatus: status, updatedAt };
      expect(recordVerdict('a@x.com', record, RUN_TIME).checkedAt).toBe(RUN_TIME);
    }
    const second = { email: 'a@x.com', emailStatus: status, updatedAt: 'soon', createdAt: '2026-12-02T00:00:00Z' };
    expect(recordVerdict('a@x.com', second, RUN_TIME).checkedAt).toBe('2026-12-02T00:00:00.000Z');
  });
});
