// Tokens: bound to the service that issued them, and expiring with the sandbox clock.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { authenticate, grantToken } from '../../src/sandbox/auth.js';
import { hashPassword } from '../../src/sandbox/crypto.js';
import type { ParsedRequest, SandboxContext } from '../../src/sandbox/router.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { Store } from '../../src/sandbox/store.js';
import { FakeClock } from '../helpers/clock.js';
import { TEST_PASSWORD_COST, useSandboxes } from '../helpers/sandbox.js';
import { call, PASSWORD, registerUser, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandboxes.start();
});

describe('tokens are bound to their service', () => {
  it('a cleaning token and a cdp-token are refused by platform routes', async () => {
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    const cleanToken = up.json.result.token as string;
    expect((await call(sb.url, 'GET', '/api/me', { token: cleanToken })).status).toBe(401);

    const { email, userId } = await registerUser(sb.url);
    const login = await call(sb.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    const cdp = login.json.response['cdp-token'] as string;
    expect((await call(sb.url, 'GET', '/api/me', { token: cdp })).status).toBe(401);
    expect((await call(sb.url, 'GET', `/api/user/${userId}/roles`, { token: cdp })).status).toBe(401);
    expect((await call(sb.url, 'GET', '/api/me', { token: login.json.response.token })).status).toBe(200);
  });

  it('a platform token is refused where a cleaning token is required', async () => {
    // The guard itself; clean-route.test.ts checks the same through POST /api/v1/email-verify/validate/clean.
    const store = await Store.open(undefined);
    const ctx: SandboxContext = {
      store,
      now: () => 1_000,
      tokenTtlMs: 60_000,
      internalToken: undefined,
      plan: 'free',
      shape: 'spec',
      passwordCost: TEST_PASSWORD_COST,
    };
    const password = await hashPassword(PASSWORD, TEST_PASSWORD_COST);
    const { platformToken, cleanToken } = await store.mutate((draft) => {
      draft.cleanUsers['c1'] = {
        _id: 'c1',
        name: '',
        email: 'c@example.com',
        password,
        plan: 'free',
        createdAt: 0,
        updatedAt: 0,
      };
      return {
        platformToken: grantToken(draft, 'c1', 'platform', ctx),
        cleanToken: grantToken(draft, 'c1', 'clean', ctx),
      };
    });
    const req = (token: string): ParsedRequest => ({
      method: 'POST',
      path: '/api/v1/email-verify/validate/clean',
      query: new URLSearchParams(),
      headers: { authorization: `Bearer ${token}` },
      params: {},
      body: {},
    });
    expect(authenticate(req(cleanToken), ctx, 'clean')).toBe('c1');
    expect(() => authenticate(req(platformToken), ctx, 'clean')).toThrow(expect.objectContaining({ status: 401 }));
  });
});

describe('token lifetime', () => {
  it('expires tokens after tokenTtlMs as the clock moves', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 21, 22, 23, 45, 123));
    const h = await sandboxes.start({ now: clock.now, tokenTtlMs: 60_000 });
    const { token, reply } = await registerUser(h.url);
    expect(reply.json.response.user.data.created_at).toBe('2026-11-21T22:23:45.123000Z');

    clock.advance(59_999);
    expect((await call(h.url, 'GET', '/api/me', { token })).status).toBe(200);
    clock.advance(1);
    const expired = await call(h.url, 'GET', '/api/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.json.message).toBe('Unauthenticated.');

    const up = await call(h.url, 'POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(up.json.result.user.createdAt).toBe(new Date(clock.time).toISOString());
  });

  it('drops expired tokens from the state when new ones are issued', async () => {
    const clock = new FakeClock(1_000_000);
    const dataDir = sandboxes.dataDir();
    const h = await sandboxes.start({ dataDir, now: clock.now, tokenTtlMs: 1_000 });
    const { email } = await registerUser(h.url);
    clock.advance(5_000);
    await call(h.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    const state = JSON.parse(await readFile(join(dataDir, 'sandbox.json'), 'utf8'));
    const services = Object.values(state.tokens)
      .map((t) => (t as { service: string }).service)
      .sort();
    expect(services).toEqual(['cdp', 'platform']);
  });

  it('stores passwords at the scrypt cost it is given (2^14 unless told) and signs in with them', async () => {
    const stored = async (opts: { passwordCost?: number }) => {
      const dataDir = sandboxes.dataDir();
      const h = await sandboxes.start({ dataDir, ...opts });
      const { email } = await registerUser(h.url);
      expect((await call(h.url, 'POST', '/api/login', { body: { email, password: PASSWORD } })).status).toBe(200);
      const bad = await call(h.url, 'POST', '/api/login', { body: { email, password: `${PASSWORD}!` } });
      expect(bad.status).toBe(401);
      await sandboxes.stop(h);
      const state = JSON.parse(await readFile(join(dataDir, 'sandbox.json'), 'utf8'));
      const users = Object.values(state.platformUsers) as Array<{ email: string; password: { N: number } }>;
      return users.find((u) => u.email === email)?.password.N;
    };
    expect(await stored({ passwordCost: 16 })).toBe(16);
    expect(await stored({ passwordCost: undefined })).toBe(2 ** 14);
    await expect(sandboxes.start({ passwordCost: 1000 })).rejects.toThrow(/passwordCost must be a power of two/);
  });
});
