import { describe, expect, it } from 'vitest';
import { type Handler, Router } from '../../src/sandbox/router.js';

const handler =
  (tag: string): Handler =>
  async () => ({ status: 200, body: tag });

describe('Router', () => {
  const router = new Router()
    .add('GET', '/api/me', handler('get-me'))
    .add('POST', '/api/me', handler('post-me'))
    .add('GET', '/api/user/:user_id/roles', handler('roles'));

  it('matches method and path and decodes captures', () => {
    const m = router.match('GET', '/api/user/a%20b/roles');
    expect(m.kind).toBe('found');
    if (m.kind === 'found') expect(m.params).toEqual({ user_id: 'a b' });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(router.match('DELETE', '/api/me')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST'] });
    expect(router.match('GET', '/api/user/roles')).toEqual({ kind: 'not-found' });
    expect(router.match('GET', '/api/user/%E0%A4%A/roles')).toEqual({ kind: 'not-found' });
  });

  it('refuses a route registered twice', () => {
    expect(() => router.add('GET', '/api/user/:id/roles', handler('again'))).toThrow(/already registered/);
  });
});
