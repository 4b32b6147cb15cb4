// The alt shape: a second reading of what the spec leaves open, seen over raw HTTP.
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { addresses, CLEAN, cleanCall } from './clean-helpers.js';
import { call, PASSWORD, TOKEN, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
let alt: SandboxHandle;
beforeEach(async () => {
  alt = await sandboxes.start({ shape: 'alt', internalToken: 'internal-secret-123' });
});

async function registerAlt(): Promise<{ token: string; email: string; userId: string }> {
  const email = uniqueEmail('alt');
  const reg = await call(alt.url, 'POST', '/api/register', { body: { name: 'Ada', email, password: PASSWORD } });
  expect(reg.status).toBe(201);
  return { token: reg.json.response.access_token, email, userId: reg.json.response.user.data.id };
}

describe('sandbox shape alt', () => {
  it('rejects an unknown shape', async () => {
    await expect(sandboxes.start({ shape: 'other' as 'alt' })).rejects.toThrow(/unknown shape/);
  });

  it('platform failures carry statusMessage and response.errors, no top-level message or errors', async () => {
    const res = await call(alt.url, 'POST', '/api/register', { body: { email: 'not-an-address' } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      version: 'v1',
      status: false,
      statusCode: 422,
      details: 'Unprocessable Entity',
      statusMessage: 'The given data was invalid.',
      response: {
        errors: {
          name: ['The name field is required.'],
          email: ['The email field must be a valid email address.'],
          password: ['The password field is required.'],
        },
      },
    });
  });

  it('other platform failures put the message in statusMessage', async () => {
    const res = await call(alt.url, 'POST', '/api/oem/register', {
      body: { name: 'Cy', email: uniqueEmail(), password: PASSWORD },
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      version: 'v1',
      status: false,
      statusCode: 403,
      details: 'Forbidden',
      statusMessage: 'Invalid internal access token.',
      response: null,
    });
  });

  it('a missing or bad token gets a bare {"message":"Unauthenticated."} on both interfaces', async () => {
    const me = await call(alt.url, 'GET', '/api/me', { token: 'abc.def' });
    expect(me.status).toBe(401);
    expect(me.json).toEqual({ message: 'Unauthenticated.' });
    const clean = await cleanCall(alt.url, 'nope', ['a@example.com']);
    expect(clean.status).toBe(401);
    expect(clean.json).toEqual({ message: 'Unauthenticated.' });
  });

  it('login and register put the token under response.access_token', async () => {
    const { token, email } = await registerAlt();
    expect(token).toMatch(TOKEN);
    const login = await call(alt.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.json.response).toMatchObject({ access_token: expect.stringMatching(TOKEN), token_type: 'Bearer' });
    expect(login.json.response.token).toBeUndefined();
    expect((await call(alt.url, 'GET', '/api/me', { token: login.json.response.access_token })).status).toBe(200);

    const wrong = await call(alt.url, 'POST', '/api/login', { body: { email, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({
      statusCode: 401,
      details: 'Unauthorized',
      statusMessage: 'Invalid email or password.',
    });
  });

  it('signin and signup put the token under result.accessToken, the user under result.user', async () => {
    const email = uniqueEmail('cleaner');
    const up = await call(alt.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    expect(up.status).toBe(201);
    expect(up.json.result).toEqual({
      accessToken: expect.stringMatching(TOKEN),
      user: expect.objectContaining({ email }),
    });
    const signin = await call(alt.url, 'POST', '/api/v1/auth/signin', { body: { email, password: PASSWORD } });
    expect(signin.json.result.accessToken).toMatch(TOKEN);
    expect(signin.json.result.token).toBeUndefined();

    const taken = await call(alt.url, 'POST', '/api/v1/auth/signup', { body: { email, password: PASSWORD } });
    expect(taken.status).toBe(422);
    expect(taken.json).toEqual({
      status: false,
      statusCode: 422,
      message: 'The email has already been taken.',
      result: { errors: { email: ['The email has already been taken.'] } },
    });
  });

  it('a brand the user does not own is a 403; POST /api/me refuses empty strings', async () => {
    const { token } = await registerAlt();
    const brand = await call(alt.url, 'GET', '/api/me?current_buuid=no-such-brand', { token });
    expect(brand.status).toBe(403);
    expect(brand.json.statusMessage).toBe('This action is unauthorized.');
    const update = await call(alt.url, 'POST', '/api/me', {
      token,
      body: { first_name: 'Ada', last_name: '', phone: '1', country_code: 'GB' },
    });
    expect(update.status).toBe(422);
    expect(update.json.response.errors).toEqual({ last_name: ['The last_name field is required.'] });
  });

  it('refuses the monthly allowance with a 403 that says what is left', async () => {
    const up = await call(alt.url, 'POST', '/api/v1/auth/signup', {
      body: { email: uniqueEmail('cleaner'), password: PASSWORD },
    });
    const token = up.json.result.accessToken as string;
    expect((await cleanCall(alt.url, token, addresses(30))).status).toBe(200);
    const refused = await call(alt.url, 'POST', CLEAN, { token, body: { email: addresses(30, 'b') } });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      status: false,
      statusCode: 403,
      message: 'You have exceeded your monthly email cleaning limit on the free plan: 50 per month, 20 left.',
      result: null,
    });
  });
});
