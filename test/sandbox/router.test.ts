import { describe, expect, it } from 'vitest';
import { type Handler, matchRoute, type Route, routeTable } from '../../src/sandbox/router.js';

const handler =
  (tag: string): Handler =>
  async () => ({ status: 200, body: tag });

describe('routes', () => {
  const routes: Route[] = routeTable([
    { method: 'GET', pattern: '/api/me', handler: handler('get-me') },
    { method: 'POST', pattern: '/api/me', handler: handler('post-me') },
    { method: 'GET', pattern: '/api/user/:user_id/roles', handler: handler('roles') },
  ]);

  it('matches method and path and decodes captures', () => {
    const m = matchRoute(routes, 'GET', '/api/user/a%20b/roles');
    expect(m.kind).toBe('found');
    if (m.kind === 'found') expect(m.params).toEqual({ user_id: 'a b' });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(matchRoute(routes, 'DELETE', '/api/me')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST'] });
    expect(matchRoute(routes, 'GET', '/api/user/roles')).toEqual({ kind: 'not-found' });
    expect(matchRoute(routes, 'GET', '/api/user/%E0%A4%A/roles')).toEqual({ kind: 'not-found' });
  });

  it('refuses a route given twice', () => {
    const again = { method: 'GET', pattern: '/api/user/:id/roles', handler: handler('again') };
    expect(() => routeTable([...routes, again])).toThrow(/already registered/);
  });
});
