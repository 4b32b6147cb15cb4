import { describe, expect, it } from 'vitest';
import {
  FREE_PROVIDERS,
  isDisposableDomain,
  isFreeProvider,
  isRoleAccount,
  ROLE_ACCOUNTS,
} from '../../src/verify/lists.js';
import { COMMON_DOMAINS, distance, suggestDomain } from '../../src/verify/typo.js';

describe('lists', () => {
  it('knows disposable domains and their subdomains, not look-alikes', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('inbox.mailinator.com')).toBe(true);
    expect(isDisposableDomain('MAILINATOR.COM')).toBe(true);
    expect(isDisposableDomain('gmail.com')).toBe(false);
    expect(isDisposableDomain('mailinator.com.example.org')).toBe(false);
    expect(isDisposableDomain('com')).toBe(false);
  });

  it('flags role accounts in their usual spellings', () => {
    expect(ROLE_ACCOUNTS.length).toBeGreaterThanOrEqual(40);
    for (const local of [
      'admin',
      'Info',
      'support',
      'sales',
      'noreply',
      'no-reply',
      'No_Reply',
      'postmaster',
      'abuse',
      'info+news',
      'mailer-daemon',
    ]) {
      expect(isRoleAccount(local), local).toBe(true);
    }
    for (const local of ['ann', 'john.smith', 'information.desk', 'salesforce', '"info"']) {
      expect(isRoleAccount(local), local).toBe(false);
    }
  });

  it('tells role accounts by their first two letters as the full rule does, whatever the spelling', () => {
    // The rule as written out in full (lower case, no separators, before any +): the quick test must agree with it.
    const fullRule = (local: string) => {
      if (local.startsWith('"')) return false;
      const plus = local.indexOf('+');
      return ROLE_ACCOUNTS.includes((plus > 0 ? local.slice(0, plus) : local).toLowerCase().replace(/[._-]/g, ''));
    };
    const spellings = [
      ...ROLE_ACCOUNTS.flatMap((role) => [role, role.toUpperCase(), `${role[0]}.${role.slice(1)}`, `-${role}_`]),
      ...ROLE_ACCOUNTS.map((role) => `${role}+tag`),
      '+info',
      'i+nfo',
      '.+info',
      'info+',
      'h',
      'H.R',
      '',
      // Non-ASCII letters that lower-case to ASCII (the Kelvin sign to k) or to two characters (İ).
      '\u212Aevin',
      'mar\u212Aeting',
      '\u0130nfo',
      'ınfo',
      'zoë',
      'ann.lee',
    ];
    for (const local of spellings) expect(isRoleAccount(local), local).toBe(fullRule(local));
  });

  it('flags free providers by exact domain', () => {
    expect(FREE_PROVIDERS.length).toBeGreaterThanOrEqual(40);
    for (const d of [
      'gmail.com',
      'yahoo.com',
      'outlook.com',
      'hotmail.com',
      'icloud.com',
      'gmx.de',
      'mail.ru',
      'yandex.ru',
      'proton.me',
    ]) {
      expect(isFreeProvider(d), d).toBe(true);
    }
    expect(isFreeProvider('example.com')).toBe(false);
    expect(isFreeProvider('mail.gmail.com.example.com')).toBe(false);
  });
});

describe('typo suggestions', () => {
  it('corrects common providers one edit away, after fixing a TLD that does not exist', () => {
    expect(suggestDomain('gmial.com')).toBe('gmail.com');
    expect(suggestDomain('hotmial.com')).toBe('hotmail.com');
    expect(suggestDomain('yaho.com')).toBe('yahoo.com');
    expect(suggestDomain('gmail.co')).toBe('gmail.com');
    expect(suggestDomain('gmail.con')).toBe('gmail.com');
    expect(suggestDomain('gmaill.con')).toBe('gmail.com');
    expect(suggestDomain('outlok.com')).toBe('outlook.com');
    expect(suggestDomain('icloud.cm')).toBe('icloud.com');
  });

  it('fixes a TLD that does not exist on any domain', () => {
    expect(suggestDomain('example.con')).toBe('example.com');
    expect(suggestDomain('acme.co.uk')).toBeUndefined();
    expect(suggestDomain('acme.ogr')).toBe('acme.org');
  });

  it('never suggests a disposable domain', () => {
    expect(suggestDomain('mailinator.con')).toBeUndefined();
    expect(suggestDomain('yopmail.con')).toBeUndefined();
    for (const d of COMMON_DOMAINS) expect(isDisposableDomain(d), d).toBe(false);
  });

  it('does not take one real domain for a typo of another', () => {
    // Country versions of a provider, providers of their own, companies one letter from a short provider name.
    for (const d of [
      'hotmail.de',
      'hotmail.fi',
      'hotmail.gr',
      'yahoo.de',
      'yahoo.ca',
      'yahoo.co.au',
      'yahoo.co.jp',
      'protonmail.ch',
      'yandex.ua',
      'email.com',
      'ge.com',
      'ms.com',
      'msi.com',
      'aon.com',
      'max.com',
      'yopmail.com',
      'fakemail.com',
      'passmail.com',
    ]) {
      expect(suggestDomain(d), d).toBeUndefined();
    }
    for (const d of FREE_PROVIDERS) expect(suggestDomain(d), d).toBeUndefined();
  });

  it('never corrects a listed domain, nor one far from every listed domain', () => {
    for (const d of COMMON_DOMAINS) expect(suggestDomain(d), d).toBeUndefined();
    expect(suggestDomain('example.com')).toBeUndefined();
    expect(suggestDomain('university.edu')).toBeUndefined();
  });

  it('counts a transposition as one edit', () => {
    expect(distance('gmial.com', 'gmail.com')).toBe(1);
    expect(distance('abc', 'abc')).toBe(0);
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('kitten', 'sitting', 1)).toBe(2);
  });
});
