import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, grantToken } from '../../src/sandbox/auth.js';
import { hashPassword } from '../../src/sandbox/crypto.js';
import type { ParsedRequest, SandboxContext } from '../../src/sandbox/router.js';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { Store } from '../../src/sandbox/store.js';
import { call, ISO_MILLIS, PASSWORD, registerUser, sandbox, TOKEN, uniqueEmail } from './helpers.js';

let sb: SandboxHandle;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb.close();
});

describe('cleaning accounts', () => {
  it('signs up with 201 and signs in with 200, in the cleaning envelope', async () => {
    const email = uniqueEmail('clean');
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { name: 'Grace', email, password: PASSWORD } });
    expect(up.status).toBe(201);
    expect(up.json).toEqual({
      message: expect.any(String),
      status: true,
      statusCode: 201,
      result: {
        token: expect.stringMatching(TOKEN),
        user: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          name: 'Grace',
          email,
          plan: 'free',
          createdAt: expect.stringMatching(ISO_MILLIS),
          usage: { limit: 50, used: 0, remaining: 50, renewsAt: expect.stringMatching(/^\d{4}-\d{2}-01$/) },
        },
      },
    });

    const inn = await call(sb.url, 'POST', '/api/v1/auth/signin', { body: { email, password: PASSWORD } });
    expect(inn.status).toBe(200);
    expect(inn.json).toMatchObject({ status: true, statusCode: 200, result: { user: up.json.result.user } });
    expect(inn.json.result.token).toMatch(TOKEN);
    expect(inn.json.result.token).not.toBe(up.json.result.token);
  });

  it('makes name optional', async () => {
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(up.status).toBe(201);
    expect(up.json.result.user.name).toBe('');
  });

  it('refuses a taken email with 422 and field errors', async () => {
    const email = uniqueEmail('clean-dup');
    await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    const again = await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    expect(again.status).toBe(422);
    expect(again.json).toEqual({
      message: 'The email has already been taken.',
      status: false,
      statusCode: 422,
      errors: { email: ['The email has already been taken.'] },
    });
  });

  it('validates signup and signin bodies', async () => {
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email: 'nope', password: 'short' } });
    expect(up.status).toBe(422);
    expect(up.json.errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be at least 8 characters.'],
    });
    const inn = await call(sb.url, 'POST', '/api/v1/auth/signin', { body: {} });
    expect(inn.status).toBe(422);
    expect(Object.keys(inn.json.errors).sort()).toEqual(['email', 'password']);
  });

  it('answers wrong credentials with 401 and one message', async () => {
    const email = uniqueEmail('clean-wrong');
    await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    const wrong = await call(sb.url, 'POST', '/api/v1/auth/signin', { body: { email, password: 'wrong password' } });
    const unknown = await call(sb.url, 'POST', '/api/v1/auth/signin', { body: { email: uniqueEmail(), password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ message: 'Invalid email or password.', status: false, statusCode: 401 });
    expect(unknown.json).toEqual(wrong.json);
  });

  it('keeps cleaning and platform accounts apart', async () => {
    const email = uniqueEmail('both');
    await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    const login = await call(sb.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(401);
    // The same address can still register on the platform: the tables are separate.
    await registerUser(sb.url, { email });
  });
});

describe('tokens are bound to their service', () => {
  it('a cleaning token and a cdp-token are refused by platform routes', async () => {
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', { body: { email: uniqueEmail(), password: PASSWORD } });
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
    const ctx: SandboxContext = { store, now: () => 1_000, tokenTtlMs: 60_000, internalToken: undefined, plan: 'free', shape: 'spec' };
    const password = await hashPassword(PASSWORD);
    const { platformToken, cleanToken } = await store.mutate((draft) => {
      draft.cleanUsers['c1'] = { _id: 'c1', name: '', email: 'c@example.com', password, plan: 'free', createdAt: 0, updatedAt: 0 };
      return { platformToken: grantToken(draft, 'c1', 'platform', ctx), cleanToken: grantToken(draft, 'c1', 'clean', ctx) };
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
