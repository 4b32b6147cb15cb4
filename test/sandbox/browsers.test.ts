// A web page open in a browser must not be able to drive a sandbox running on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { call, PASSWORD, sandbox, uniqueEmail } from './helpers.js';

describe('the sandbox refuses what a browser could send', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  const body = () => ({ name: 'Eve', email: uniqueEmail('eve'), password: PASSWORD });

  it('a JSON body sent as text/plain (a form or a no-preflight fetch) is 415, and nothing is created', async () => {
    const b = body();
    const res = await call(sb.url, 'POST', '/api/register', { body: b, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    const login = await call(sb.url, 'POST', '/api/login', { body: { email: b.email, password: PASSWORD } });
    expect(login.status).toBe(401);
  });

  it('a request naming another origin is 403', async () => {
    const res = await call(sb.url, 'POST', '/api/register', { body: body(), headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe('Cross-origin requests from a browser are refused.');
  });

  it('our clients (JSON, no Origin) and a page served by the sandbox itself are served', async () => {
    expect((await call(sb.url, 'POST', '/api/register', { body: body() })).status).toBe(201);
    expect((await call(sb.url, 'POST', '/api/register', { body: body(), headers: { origin: sb.url } })).status).toBe(201);
    expect((await call(sb.url, 'POST', '/api/register', { body: body(), headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(201);
  });
});
