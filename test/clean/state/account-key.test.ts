// How a session's identities are named (src/clean/state/account-key.ts): hashes bound to the service's URL, a JWT's
// user, and the keys of accounts seen for the first time, as earlier versions named them.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountKey, identitiesOf, userIdOfToken } from '../../../src/clean/state/account-key.js';

const jwt = (claims: object) =>
  ['{"alg":"HS256"}', JSON.stringify(claims), 'signature'].map((p) => Buffer.from(p).toString('base64url')).join('.');

describe('account identities', () => {
  it('reads the user a JWT names, and nothing from other tokens', () => {
    expect(userIdOfToken(jwt({ sub: 'u-1', exp: 1 }))).toBe('u-1');
    expect(userIdOfToken(jwt({ _id: '64f0c2' }))).toBe('64f0c2');
    expect(userIdOfToken(jwt({ userId: 42 }))).toBe('42');
    expect(userIdOfToken(jwt({ scope: 'clean' }))).toBeUndefined();
    expect(userIdOfToken('token-id.secret')).toBeUndefined();
    expect(userIdOfToken('a.b.c')).toBeUndefined();
    expect(userIdOfToken(undefined)).toBeUndefined();
  });

  it('names identities by hashes bound to the service (never the token or the email), the email in any case', () => {
    const ids = identitiesOf({
      cleanUrl: 'https://clean.example',
      token: 'secret-token',
      email: 'Ada@Example.com',
      userId: 'u1',
    });
    expect(ids).toHaveLength(3);
    expect(ids.join()).not.toMatch(/secret|ada|example/i);
    expect(identitiesOf({ cleanUrl: 'https://clean.example', email: 'ada@example.com' })).toEqual([ids[1]]);
    expect(identitiesOf({ cleanUrl: 'https://other.example', email: 'ada@example.com' })).not.toEqual([ids[1]]);
  });

  it('keys a new account as earlier versions did, so their data directories are found', () => {
    const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');
    expect(accountKey('https://c.example', 'Ada@Example.com', 't')).toBe(
      hash('https://c.example', 'email:ada@example.com').slice(0, 32),
    );
    expect(accountKey('https://c.example', undefined, 't')).toBe(
      hash('https://c.example', `token:${hash('t')}`).slice(0, 32),
    );
  });
});
