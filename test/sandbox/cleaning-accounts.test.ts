import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { call, ISO_MILLIS, PASSWORD, registerUser, TOKEN, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandboxes.start();
});

describe('cleaning accounts', () => {
  it('signs up with 201 and signs in with 200, in the cleaning envelope', async () => {
    const email = uniqueEmail('clean');
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', {
      body: { name: 'Grace', email, password: PASSWORD },
    });
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
    const up = await call(sb.url, 'POST', '/api/v1/auth/signup', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
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
    const unknown = await call(sb.url, 'POST', '/api/v1/auth/signin', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
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
