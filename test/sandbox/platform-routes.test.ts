import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { FakeClock } from '../helpers/clock.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { call, DISPLAY_TIME, ISO_MICROS, PASSWORD, registerUser, TOKEN, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandboxes.start({ internalToken: 'internal-secret-for-tests' });
});

function expectSuccessEnvelope(json: Record<string, unknown>, statusCode: 200 | 201): void {
  expect(json).toMatchObject({
    version: 'v1',
    status: true,
    statusCode,
    details: statusCode === 201 ? 'Created' : 'OK',
    statusMessage: 'success',
  });
  expect(typeof json['response']).toBe('object');
}

describe('POST /api/register', () => {
  it('creates user, brand, roles, subscription and homepage in the spec shape', async () => {
    const email = uniqueEmail('ada');
    const { reply } = await registerUser(sb.url, { email, name: 'Ada' });
    expect(reply.status).toBe(201);
    expectSuccessEnvelope(reply.json, 201);
    const { token, user, brand } = reply.json.response;
    expect(token).toMatch(TOKEN);

    const u = user.data;
    expect(u).toMatchObject({
      first_name: 'Ada',
      last_name: '',
      email,
      phone: null,
      country_code: 'GB',
      email_verified: false,
      source: 'test',
      source_path: '/signup',
      onboarding: { pages: false, emails: false, recipes: false, homepage: false },
    });
    expect(u.id).toEqual(expect.any(String));
    expect(u.created_at).toMatch(ISO_MICROS);
    expect(u.brands.data).toHaveLength(1);
    expect(u.brands.data[0]).toEqual({
      id: brand.data.id,
      name: "Ada's brand",
      slug: brand.data.slug,
      description: null,
      brand_url: expect.stringMatching(/^https:\/\//),
      logo: { data: [] },
      favicon: { data: [] },
      onboarded: false,
      active: true,
    });
    expect(u.role.data.name).toBe('admin');
    expect(u.roles.data.map((r: { name: string }) => r.name)).toEqual(['admin', 'manager', 'superadmin', 'user']);
    expect('password' in u).toBe(false);

    const b = brand.data;
    expect(b.name).toBe("Ada's brand");
    expect(b.slug).toMatch(/^adas-brand-[0-9a-f]+$/);
    expect(b.timezone).toBe('UTC');
    expect(b.owner).toEqual({ first_name: 'Ada', last_name: '', email });
    expect(b.pusers).toEqual([{ uuid: u.id, first_name: 'Ada', last_name: '', email }]);
    expect(typeof b.p_key).toBe('string');
    expect(b.api_key.length).toBeGreaterThanOrEqual(40);
    expect(b.settings).toMatchObject({
      lists: { double_optin: expect.any(Boolean) },
      general: { gdpr: expect.any(Boolean), language: expect.stringMatching(/^[a-z]{2}_[A-Z]{2}$/) },
      branding: { forms: expect.any(Boolean), webpages: expect.any(Boolean), campaigns: expect.any(Boolean) },
      recaptcha: { forms: expect.any(Boolean), webpages: expect.any(Boolean) },
      email_tracking: {
        unsubscribe: expect.any(Boolean),
        open_tracking: expect.any(Boolean),
        click_tracking: expect.any(Boolean),
      },
    });
    expect(b.settings.configuration.campaing_allowed_contact_cleaning.every(Number.isInteger)).toBe(true);
    expect(Object.keys(b.meta.social).sort()).toEqual(
      [
        'blog',
        'email',
        'medium',
        'reddit',
        'twitter',
        'website',
        'youtube',
        'facebook',
        'linkedin',
        'snapchat',
        'whatsapp',
        'instagram',
      ].sort(),
    );
    expect(b.conf).toEqual({
      logo: expect.any(String),
      favicon: expect.any(String),
      platform_name: expect.any(String),
    });
    expect(b.all_plans.map((p: { key: string }) => p.key)).toEqual(['free', 'pro', 'unlimited']);
    for (const plan of b.all_plans) {
      expect(plan.details).toEqual({ name: expect.any(String), description: expect.any(String) });
      expect(plan.amounts.default).toEqual({
        currency: expect.any(String),
        currency_symbol: expect.any(String),
        value: expect.any(String),
        frequency: expect.stringMatching(/^(month|year)$/),
        payment_link: expect.stringMatching(/^https:\/\//),
      });
      expect(Object.keys(plan.amounts).length).toBeGreaterThan(1);
    }

    // Registration lists each permission as {name} only.
    expect(b.roles.data).toHaveLength(4);
    for (const role of b.roles.data) {
      expect(role.brand_id).toBe(b.id);
      expect(role.permissions.data.length).toBeGreaterThan(100);
      for (const p of role.permissions.data) expect(Object.keys(p)).toEqual(['name']);
    }
  });

  it('creates the default homepage with its connected form (spec 2.9)', async () => {
    const { reply } = await registerUser(sb.url);
    const hp = reply.json.response.brand.data.homepage.data;
    expect(hp).toMatchObject({
      status: 'active',
      delete_allowed: false,
      type: { data: { name: 'webpage' } },
      tags: { data: [] },
      media: { data: [] },
    });
    const page = hp.service.data;
    expect(page.status).toBe('active');
    expect(page.form_present).toBe(true);
    expect(page.preview_link).toMatch(/\?preview=/);
    expect(typeof page.visits).toBe('number');
    expect(page.settings.appearance.font['font-family']).toEqual(expect.any(String));
    expect(Object.keys(page.settings.appearance.font['font-weight']).sort()).toEqual([
      'bold',
      'regular',
      'semibold',
      'thin',
    ]);
    expect(Object.keys(page.settings.appearance.colors).sort()).toEqual([
      'light',
      'primary',
      'text_primary',
      'text_secondary',
      'text_tertiary',
    ]);
    for (const c of Object.values(page.settings.appearance.colors)) expect(c).toMatch(/^#[0-9a-f]{6}$/i);
    expect(Object.keys(JSON.parse(page.content)).sort()).toEqual([
      'assets',
      'css',
      'custom_body',
      'custom_footer',
      'custom_head',
      'html',
    ]);
    expect(page.configuration.plugin[0]).toMatchObject({ blocks: [], blockCategories: [] });

    expect(page.connected_form.data).toHaveLength(1);
    const form = page.connected_form.data[0];
    expect(form).toMatchObject({ status: 'active', delete_allowed: false, type: { data: { name: 'form' } } });
    const params = form.service.data.params.data;
    expect(params.map((p: { name: string; type: string }) => [p.name, p.type])).toEqual([
      ['name', 'text'],
      ['email', 'email'],
    ]);
    const emailParam = params[1];
    expect(emailParam.required).toBe(1);
    expect(JSON.parse(emailParam.attributes)).toEqual(expect.any(Array));
    expect(emailParam.content).toMatch(/<input[^>]+type="email"/);
  });

  it('refuses a taken email, whatever its case, with 422 on the email field', async () => {
    const email = uniqueEmail('dup');
    await registerUser(sb.url, { email });
    const again = await call(sb.url, 'POST', '/api/register', {
      body: { name: 'Other', email: email.toUpperCase(), password: PASSWORD },
    });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ status: false, statusCode: 422, statusMessage: 'error' });
    expect(again.json.errors).toEqual({ email: ['The email has already been taken.'] });
  });

  it('lets only one of two simultaneous registrations of an address through', async () => {
    const email = uniqueEmail('race');
    const body = { name: 'Race', email, password: PASSWORD };
    const replies = await Promise.all([1, 2, 3].map(() => call(sb.url, 'POST', '/api/register', { body })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 422, 422]);
  });

  it('names every invalid field in one 422', async () => {
    const empty = await call(sb.url, 'POST', '/api/register', { body: {} });
    expect(empty.status).toBe(422);
    expect(empty.json).toMatchObject({
      version: 'v1',
      status: false,
      statusCode: 422,
      details: 'Unprocessable Entity',
      statusMessage: 'error',
      message: 'The name field is required. (and 2 more errors)',
    });
    expect(Object.keys(empty.json.errors).sort()).toEqual(['email', 'name', 'password']);

    const bad = await call(sb.url, 'POST', '/api/register', {
      body: { name: 'Bo', email: 'not-an-email', password: 'short', country_code: 44 },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be at least 8 characters.'],
      country_code: ['The country_code field must be a string.'],
    });
  });
});

describe('POST /api/login', () => {
  it('returns token, cdp-token and the user with brand and subscription nested', async () => {
    const { email, userId } = await registerUser(sb.url);
    const res = await call(sb.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expectSuccessEnvelope(res.json, 200);
    const r = res.json.response;
    expect(r.token).toMatch(TOKEN);
    expect(r['cdp-token']).toMatch(TOKEN);
    expect(r['cdp-token']).not.toBe(r.token);

    const u = r.user.data;
    expect(u.id).toBe(userId);
    expect(u.created_at).toMatch(ISO_MICROS);
    expect(u.brands.data).toHaveLength(1);
    expect(u.role.data.name).toBe('admin');
    for (const role of u.roles.data) expect(role).not.toHaveProperty('permissions');
    expect(u.currentBrand.data.id).toBe(u.brands.data[0].id);
    expect(u.currentBrand.data).not.toHaveProperty('homepage');
    expect(u.currentBrand.data.api_key).toEqual(expect.any(String));
    const sub = u.subscription.data;
    expect(sub).toMatchObject({ subscription_type: 'free', payment_vendor: expect.any(String), meta: null });
    expect(sub.created_at).toMatch(DISPLAY_TIME);
    expect(sub.updated_at).toMatch(DISPLAY_TIME);
    expect(sub.info.details.name).toBe('Free');
    expect(sub.info).not.toHaveProperty('usage_nav');

    const me = await call(sb.url, 'GET', '/api/me', { token: r.token });
    expect(me.status).toBe(200);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const { email } = await registerUser(sb.url);
    const wrong = await call(sb.url, 'POST', '/api/login', { body: { email, password: 'not the password' } });
    const unknown = await call(sb.url, 'POST', '/api/login', {
      body: { email: uniqueEmail('nobody'), password: PASSWORD },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual(unknown.json);
    expect(wrong.json).toEqual({
      version: 'v1',
      status: false,
      statusCode: 401,
      details: 'Unauthorized',
      statusMessage: 'error',
      message: 'Invalid email or password.',
    });
  });

  it('requires email and password', async () => {
    const res = await call(sb.url, 'POST', '/api/login', { body: { email: 'a@b.co' } });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ password: ['The password field is required.'] });
  });

  it('shows subscription dates in display form at login', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 9, 7));
    const h = await sandboxes.start({ now: clock.now });
    const { email } = await registerUser(h.url);
    const login = await call(h.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    expect(login.json.response.user.data.subscription.data.created_at).toBe('Jan 05, 2026 09:07 AM');
  });
});

describe('GET /api/me', () => {
  it('returns me with role and the reduced siblings', async () => {
    const { token, userId, brandId } = await registerUser(sb.url);
    const res = await call(sb.url, 'GET', '/api/me', { token });
    expect(res.status).toBe(200);
    expectSuccessEnvelope(res.json, 200);
    const r = res.json.response;
    expect(r.me.data.id).toBe(userId);
    expect(r.me.data.role.data.name).toBe('admin');
    expect(r.roles.data).toHaveLength(4);
    expect(r.currentBrand.data).toEqual({
      id: brandId,
      name: "Ada's brand",
      slug: expect.any(String),
      timezone: 'UTC',
      active: true,
    });
    expect(Object.keys(r.subscription.data).sort()).toEqual(['id', 'subscription_type']);
    expect(r.subscription.data.subscription_type).toBe('free');
  });

  it('accepts current_buuid for an owned brand and 404s for a brand of someone else', async () => {
    const a = await registerUser(sb.url);
    const b = await registerUser(sb.url);
    const own = await call(sb.url, 'GET', `/api/me?current_buuid=${a.brandId}`, { token: a.token });
    expect(own.status).toBe(200);
    expect(own.json.response.currentBrand.data.id).toBe(a.brandId);

    const other = await call(sb.url, 'GET', `/api/me?current_buuid=${b.brandId}`, { token: a.token });
    expect(other.status).toBe(404);
    expect(other.json).toMatchObject({
      status: false,
      statusCode: 404,
      details: 'Not Found',
      message: 'Brand not found.',
    });
  });

  it('needs a bearer token', async () => {
    const res = await call(sb.url, 'GET', '/api/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.json).toEqual({
      version: 'v1',
      status: false,
      statusCode: 401,
      details: 'Unauthorized',
      statusMessage: 'error',
      message: 'Unauthenticated.',
    });
  });
});

describe('POST /api/me', () => {
  it('updates the profile and returns the full user', async () => {
    const { token, userId, brandId } = await registerUser(sb.url);
    const res = await call(sb.url, 'POST', '/api/me', {
      token,
      body: { first_name: 'Augusta', last_name: 'King', phone: '+44 20 7946 0000', country_code: 'GB' },
    });
    expect(res.status).toBe(200);
    expectSuccessEnvelope(res.json, 200);
    const u = res.json.response.me.data;
    expect(u).toMatchObject({
      id: userId,
      first_name: 'Augusta',
      last_name: 'King',
      phone: '+44 20 7946 0000',
      country_code: 'GB',
    });
    expect(u.created_at).toMatch(ISO_MICROS);
    expect(u.brands.data[0].id).toBe(brandId);
    expect(u.role.data.name).toBe('admin');
    expect(u.roles.data).toHaveLength(4);
    expect(u.currentBrand.data.id).toBe(brandId);
    expect(u.currentBrand.data.homepage.data.status).toBe('active');
    expect(typeof u.currentBrand.data.site_public).toBe('boolean');
    const sub = u.subscription.data;
    expect(sub.created_at).toMatch(ISO_MICROS);
    for (const usage of [sub.info.usage_nav, sub.info.usage_main]) {
      expect(usage.plan_name).toBe('Free');
      expect(usage.cta).toEqual({
        text: expect.any(String),
        link: expect.stringMatching(/^https:\/\//),
        visible: true,
      });
      expect(usage.blocks.length).toBeGreaterThan(0);
      for (const block of usage.blocks) {
        expect(block).toEqual({
          name: expect.any(String),
          max: expect.any(Number),
          value: 0,
          high: false,
          key: expect.any(String),
        });
        expect(Number.isInteger(block.max)).toBe(true);
      }
    }

    const me = await call(sb.url, 'GET', '/api/me', { token });
    expect(me.json.response.me.data).toMatchObject({
      first_name: 'Augusta',
      last_name: 'King',
      phone: '+44 20 7946 0000',
    });
  });

  it('requires all four fields as strings, naming each one missing', async () => {
    const { token } = await registerUser(sb.url);
    const res = await call(sb.url, 'POST', '/api/me', { token, body: { first_name: 'X', phone: 12 } });
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({
      last_name: ['The last_name field is required.'],
      phone: ['The phone field must be a string.'],
      country_code: ['The country_code field is required.'],
    });
    const empty = await call(sb.url, 'POST', '/api/me', { token });
    expect(Object.keys(empty.json.errors).sort()).toEqual(['country_code', 'first_name', 'last_name', 'phone']);
  });
});

describe('GET /api/user/{id}/roles', () => {
  it('lists the four roles of the current brand with full permission objects', async () => {
    const { token, userId, brandId } = await registerUser(sb.url);
    const res = await call(sb.url, 'GET', `/api/user/${userId}/roles`, { token });
    expect(res.status).toBe(200);
    expectSuccessEnvelope(res.json, 200);
    const roles = res.json.response.roles.data;
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['admin', 'manager', 'superadmin', 'user']);
    for (const role of roles) {
      expect(role).toMatchObject({
        id: expect.any(String),
        display_name: expect.any(String),
        brand_id: brandId,
        description: expect.any(String),
      });
      for (const p of role.permissions.data) {
        expect(Object.keys(p).sort()).toEqual(['active', 'category', 'description', 'display_name', 'name']);
        expect(p.active).toBe(1);
      }
    }
    const byName = new Map(
      roles[0].permissions.data.map((p: { name: string; category: string }) => [p.name, p.category]),
    );
    expect(byName.get('account-profile')).toBe('Account');
    expect(byName.get('contact-create')).toBe('Contact');
    expect(byName.get('campaign-send-test')).toBe('Campaign');
    expect(byName.get('container-get-campaign')).toBe('Campaign');
    expect(byName.get('container-get-linkedin_share')).toBe('Social');
    expect(byName.get('segment-get')).toBe('Segment');
  });

  it("answers 403 for another user's id and 404 for an unknown one", async () => {
    const a = await registerUser(sb.url);
    const b = await registerUser(sb.url);
    const other = await call(sb.url, 'GET', `/api/user/${b.userId}/roles`, { token: a.token });
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ status: false, statusCode: 403, details: 'Forbidden', statusMessage: 'error' });
    const unknown = await call(sb.url, 'GET', '/api/user/00000000-0000-4000-8000-000000000000/roles', {
      token: a.token,
    });
    expect(unknown.status).toBe(404);
    const anonymous = await call(sb.url, 'GET', `/api/user/${a.userId}/roles`);
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /api/oem/register', () => {
  const body = (extra: Record<string, unknown>): Record<string, unknown> => ({
    name: 'Oem Partner',
    email: uniqueEmail('oem'),
    password: PASSWORD,
    ...extra,
  });

  it('creates an account when the internal token matches', async () => {
    const fields = body({ internal_access_32543hbhjb3243h4: 'internal-secret-for-tests' });
    const res = await call(sb.url, 'POST', '/api/oem/register', { body: fields });
    expect(res.status).toBe(200);
    expectSuccessEnvelope(res.json, 200);
    const r = res.json.response;
    expect(r.me.data).toMatchObject({ email: fields['email'], first_name: 'Oem Partner', email_verified: false });
    expect(r.me.data.role.data.name).toBe('admin');
    expect(r.roles.data).toHaveLength(4);
    expect(r.currentBrand.data.name).toBe("Oem Partner's brand");
    expect(r.subscription.data.subscription_type).toBe('free');
    expect(r).not.toHaveProperty('token');

    const login = await call(sb.url, 'POST', '/api/login', { body: { email: fields['email'], password: PASSWORD } });
    expect(login.status).toBe(200);
  });

  it('answers 403 for a wrong or missing internal token, before looking at other fields', async () => {
    const wrong = await call(sb.url, 'POST', '/api/oem/register', {
      body: body({ internal_access_32543hbhjb3243h4: 'nope' }),
    });
    expect(wrong.status).toBe(403);
    expect(wrong.json).toMatchObject({
      status: false,
      statusCode: 403,
      details: 'Forbidden',
      message: 'Invalid internal access token.',
    });
    const missing = await call(sb.url, 'POST', '/api/oem/register', { body: {} });
    expect(missing.status).toBe(403);
  });

  it('validates the other fields once the token is right', async () => {
    const res = await call(sb.url, 'POST', '/api/oem/register', {
      body: { internal_access_32543hbhjb3243h4: 'internal-secret-for-tests', email: 'bad' },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json.errors).sort()).toEqual(['email', 'name', 'password']);
  });

  it('is closed when the sandbox has no internal token', async () => {
    const closed = await sandboxes.start();
    for (const token of ['', 'internal-secret-for-tests']) {
      const res = await call(closed.url, 'POST', '/api/oem/register', {
        body: body({ internal_access_32543hbhjb3243h4: token }),
      });
      expect(res.status).toBe(403);
    }
  });
});

describe('plan option', () => {
  it('gives new platform and cleaning accounts the configured plan', async () => {
    const pro = await sandboxes.start({ plan: 'pro' });
    const { token } = await registerUser(pro.url);
    const me = await call(pro.url, 'GET', '/api/me', { token });
    expect(me.json.response.subscription.data.subscription_type).toBe('pro');
    const signup = await call(pro.url, 'POST', '/api/v1/auth/signup', {
      body: { email: uniqueEmail(), password: PASSWORD },
    });
    expect(signup.json.result.user.plan).toBe('pro');
  });
});
