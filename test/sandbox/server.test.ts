import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/server.js';
import { useSandboxes } from '../helpers/sandbox.js';
import { call, PASSWORD, registerUser, uniqueEmail } from './helpers.js';

const sandboxes = useSandboxes();
const lines: string[] = [];
let sb: SandboxHandle;
beforeEach(async () => {
  sb = await sandboxes.start({ log: (line) => lines.push(line) });
});

const platformFailure = (statusCode: number, details: string): Record<string, unknown> => ({
  version: 'v1',
  status: false,
  statusCode,
  details,
  statusMessage: 'error',
  message: expect.any(String),
});

describe('request failures', () => {
  it('400 for a body that is not JSON, in each interface envelope', async () => {
    const platform = await call(sb.url, 'POST', '/api/login', { raw: '{"email":' });
    expect(platform.status).toBe(400);
    expect(platform.json).toEqual({
      ...platformFailure(400, 'Bad Request'),
      message: 'The request body is not valid JSON.',
    });

    const cleaning = await call(sb.url, 'POST', '/api/v1/auth/signin', { raw: 'email=a' });
    expect(cleaning.status).toBe(400);
    expect(cleaning.json).toEqual({ message: 'The request body is not valid JSON.', status: false, statusCode: 400 });
  });

  it('400 for JSON that is not an object', async () => {
    const res = await call(sb.url, 'POST', '/api/register', { raw: '["a@b.co"]' });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('The request body must be a JSON object.');
  });

  it('413 for a body over 1 MiB, announced or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), email: 'a@b.co', password: PASSWORD });
    const announced = await call(sb.url, 'POST', '/api/register', { raw: big });
    expect(announced.status).toBe(413);
    expect(announced.json).toEqual({
      ...platformFailure(413, 'Payload Too Large'),
      message: expect.stringMatching(/1048576 bytes/),
    });

    // No content-length: the server has to count while it reads.
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 20; i++) yield Buffer.alloc(64 * 1024, 0x20);
    }
    const streamed = await request(`${sb.url}/api/v1/auth/signup`, {
      method: 'POST',
      body: Readable.from(chunks()),
      headers: { 'content-type': 'application/json' },
    }).catch((err: Error) => err);
    // The server stops reading and closes; the client either reads the 413 or sees the close mid-upload.
    if (streamed instanceof Error) {
      expect(streamed.message).toMatch(/socket|closed|reset|EPIPE/i);
    } else {
      expect(streamed.statusCode).toBe(413);
      expect(await streamed.body.json()).toMatchObject({ status: false, statusCode: 413 });
    }

    // The server still serves requests after either.
    expect((await call(sb.url, 'POST', '/api/login', { body: {} })).status).toBe(422);
  });

  it('404 for unknown routes, in the envelope of the interface the path belongs to', async () => {
    const platform = await call(sb.url, 'GET', '/api/nothing-here');
    expect(platform.status).toBe(404);
    expect(platform.json).toEqual(platformFailure(404, 'Not Found'));
    const cleaning = await call(sb.url, 'GET', '/api/v1/nothing-here');
    expect(cleaning.status).toBe(404);
    expect(cleaning.json).toEqual({ message: expect.any(String), status: false, statusCode: 404 });
  });

  it('405 with Allow for a wrong method on a known path', async () => {
    const res = await call(sb.url, 'DELETE', '/api/me');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(res.json).toEqual(platformFailure(405, 'Method Not Allowed'));
    const cleaning = await call(sb.url, 'GET', '/api/v1/auth/signup');
    expect(cleaning.status).toBe(405);
    expect(cleaning.headers.get('allow')).toBe('POST');
    expect(cleaning.json).toMatchObject({ status: false, statusCode: 405 });
  });

  it('401 for missing, malformed, unknown and tampered tokens alike', async () => {
    const { token } = await registerUser(sb.url);
    const [id, secret] = token.split('.') as [string, string];
    const tampered = `${id}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`;
    const unknownId = `${'A'.repeat(id.length)}.${secret}`;
    const variants: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: 'Bearer' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: `Bearer ${id}` },
      { authorization: `Bearer ${token}.extra` },
      { authorization: `Bearer ${unknownId}` },
      { authorization: `Bearer ${tampered}` },
    ];
    for (const headers of variants) {
      const res = await call(sb.url, 'GET', '/api/me', { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.json).toEqual({ ...platformFailure(401, 'Unauthorized'), message: 'Unauthenticated.' });
    }
    // The scheme is case-insensitive, as in RFC 9110.
    expect((await call(sb.url, 'GET', '/api/me', { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });

  it('ignores a trailing slash and answers JSON with no-store', async () => {
    const { token } = await registerUser(sb.url);
    const res = await call(sb.url, 'GET', '/api/me/', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('logs one line per request without tokens, passwords, query strings or bodies', async () => {
    const email = uniqueEmail('logged');
    const { token } = await registerUser(sb.url, { email });
    lines.length = 0;
    await call(sb.url, 'POST', '/api/login', { body: { email, password: PASSWORD } });
    await call(sb.url, 'GET', '/api/me?current_buuid=nope', { token });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^POST \/api\/login 200 \d+ms$/);
    expect(lines[1]).toMatch(/^GET \/api\/me 404 \d+ms$/);
    const all = lines.join('\n');
    for (const secret of [token, token.split('.')[1] as string, PASSWORD, email, 'nope'])
      expect(all).not.toContain(secret);
  });
});

// A web page open in a browser must not be able to drive a sandbox running on this machine.
describe('the sandbox refuses what a browser could send', () => {
  const body = () => ({ name: 'Eve', email: uniqueEmail('eve'), password: PASSWORD });

  it('a JSON body sent as text/plain (a form or a no-preflight fetch) is 415, and nothing is created', async () => {
    const b = body();
    const res = await call(sb.url, 'POST', '/api/register', { body: b, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    const login = await call(sb.url, 'POST', '/api/login', { body: { email: b.email, password: PASSWORD } });
    expect(login.status).toBe(401);
  });

  it('a request naming another origin is 403', async () => {
    const res = await call(sb.url, 'POST', '/api/register', {
      body: body(),
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe('Cross-origin requests from a browser are refused.');
  });

  it('a request naming another host (DNS rebinding) is 421; addresses and localhost are served', async () => {
    const port = new URL(sb.url).port;
    const post = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${sb.url}/api/register`,
          { method: 'POST', headers: { host, 'content-type': 'application/json' } },
          (res) => {
            let text = '';
            res.on('data', (d: Buffer) => (text += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(body()));
      });
    const rebound = await post(`evil.example:${port}`);
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).message).toBe(
      `This sandbox answers only to its own address, not to "evil.example:${port}".`,
    );
    expect((await post(`127.0.0.1:${port}`)).status).toBe(201);
    expect((await post(`localhost:${port}`)).status).toBe(201);
    expect((await post(`[::1]:${port}`)).status).toBe(201);
  });

  it('our clients (JSON, no Origin) and a page served by the sandbox itself are served', async () => {
    expect((await call(sb.url, 'POST', '/api/register', { body: body() })).status).toBe(201);
    expect((await call(sb.url, 'POST', '/api/register', { body: body(), headers: { origin: sb.url } })).status).toBe(
      201,
    );
    expect(
      (
        await call(sb.url, 'POST', '/api/register', {
          body: body(),
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      ).status,
    ).toBe(201);
  });
});
