// The API clients over real HTTP against each sandbox shape: tokens and failures read wherever a shape puts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CleaningClient } from '../../src/api/cleaning.js';
import { HttpClient } from '../../src/api/http.js';
import { PlatformClient } from '../../src/api/platform.js';
import { ApiError, AuthError } from '../../src/errors.js';
import { type SandboxHandle, startSandbox } from '../../src/sandbox/server.js';
import { TEST_PASSWORD_COST } from '../helpers/sandbox.js';

const PASSWORD = 'correct horse battery';
let counter = 0;
const email = () => `client${++counter}.${process.pid}@example.com`;

describe.each(['spec', 'alt'] as const)('API clients against the %s shape', (shape) => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      shape,
      internalToken: 'internal-secret-123',
      passwordCost: TEST_PASSWORD_COST,
    });
  });
  afterAll(() => sandbox.close());

  function clients(token?: string) {
    let current = token;
    const http = (serviceName: string) =>
      new HttpClient({ baseUrl: sandbox.url, serviceName, token: () => current, retries: 0 });
    return {
      platform: new PlatformClient(http('platform')),
      cleaning: new CleaningClient(http('cleaning service')),
      use: (t: string) => (current = t),
    };
  }

  it('cleaning: signup and signin yield a token that the clean route accepts, and the user id', async () => {
    const c = clients();
    const address = email();
    const up = await c.cleaning.signup({ name: 'Ada', email: address, password: PASSWORD });
    expect(up.token.length).toBeGreaterThan(20);
    expect(up.userId).toMatch(/^[0-9a-f]{24}$/);
    const signedIn = await c.cleaning.signin(address, PASSWORD);
    expect(signedIn.userId).toBe(up.userId);
    c.use(signedIn.token);
    const records = await c.cleaning.clean(['ada@example.com']);
    expect(records).toMatchObject([{ email: 'ada@example.com', userId: up.userId }]);
  });

  it('cleaning: a 422 carries its field errors and exit code 2', async () => {
    const c = clients();
    const address = email();
    await c.cleaning.signup({ email: address, password: PASSWORD });
    const taken = await c.cleaning.signup({ email: address, password: PASSWORD }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ApiError);
    expect(taken).toMatchObject({
      status: 422,
      exitCode: 2,
      fieldErrors: { email: ['The email has already been taken.'] },
    });
    expect((taken as ApiError).message).toBe(
      'the cleaning service rejected the request: email: The email has already been taken.',
    );
  });

  it('cleaning: a monthly allowance refusal is a 403 whose message says what is left', async () => {
    const c = clients();
    c.use((await c.cleaning.signup({ email: email(), password: PASSWORD })).token);
    await c.cleaning.clean(Array.from({ length: 40 }, (_, i) => `a${i}@example.com`));
    const refused = await c.cleaning
      .clean(Array.from({ length: 20 }, (_, i) => `b${i}@example.com`))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    expect((refused as ApiError).message).toMatch(/: .*month.*\b10 left\b/);
  });

  it('cleaning: a bad token is an AuthError saying Unauthenticated', async () => {
    const refused = await clients('abc.def')
      .cleaning.clean(['a@example.com'])
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).message).toMatch(/refused the credentials: Unauthenticated\.$/);
  });

  it('platform: register and login yield a working token', async () => {
    const c = clients();
    const address = email();
    const reg = await c.platform.register({ name: 'Ada', email: address, password: PASSWORD });
    expect(reg.brandId).toBeTruthy();
    const login = await c.platform.login(address, PASSWORD);
    expect(login.cdpToken).toBeTruthy();
    c.use(login.token);
    expect((await c.platform.me()).me).toMatchObject({ data: { email: address } });
  });

  it('platform: a 422 names each field; other failures say the service message, not the reason text', async () => {
    const c = clients();
    const invalid = await c.platform.register({ name: '', email: 'nope', password: PASSWORD }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      status: 422,
      fieldErrors: { name: ['The name field is required.'], email: ['The email field must be a valid email address.'] },
    });
    const forbidden = await c.platform
      .oemRegister({ name: 'Cy', email: email(), password: PASSWORD, internalToken: 'wrong' })
      .catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(ApiError);
    expect((forbidden as ApiError).message).toMatch(
      /answered 403 to POST \/api\/oem\/register: Invalid internal access token\.$/,
    );
  });
});
