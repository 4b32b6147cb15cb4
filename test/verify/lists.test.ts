import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sandbox/faults.js';
import {
  FREE_PROVIDERS,
  isDisposableDomain,
  isFreeProvider,
  isRoleAccount,
  ROLE_ACCOUNTS,
} from '../../src/verify/lists.js';
import { slipBetween, suggestDomain } from '../../src/verify/typo.js';
import { REAL_LOOK_ALIKES, TARGET_DOMAINS } from '../../src/verify/typo-domains.js';

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

  it('tells role accounts by their first letters as the full rule does, whatever the spelling', () => {
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
      'hrx',
      'ft.p',
      'ftpx',
      'f+tp',
      'in.f',
      'infx',
      'info1',
      'no.c',
      'www1',
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
    for (const d of TARGET_DOMAINS) expect(isDisposableDomain(d), d).toBe(false);
  });

  it('does not take one real domain for a typo of another', () => {
    // Country versions of a provider, providers of their own, companies one letter from a short provider name.
    for (const d of [
      'hotmail.de',
      'hotmail.fi',
      'hotmail.gr',
      'yahoo.de',
      'yahoo.ca',
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
    for (const d of [...TARGET_DOMAINS, ...REAL_LOOK_ALIKES]) expect(suggestDomain(d), d).toBeUndefined();
    expect(suggestDomain('example.com')).toBeUndefined();
    expect(suggestDomain('university.edu')).toBeUndefined();
  });

  it('takes only likely slips of a short name: another word or company sits one letter from it', () => {
    for (const [typed, meant] of [
      ['wbe.de', 'web.de'],
      ['wen.de', 'web.de'],
      ['webb.de', 'web.de'],
      ['aol.cpm', 'aol.com'],
      ['lkive.com', 'live.com'],
      ['fre.fr', 'free.fr'],
    ]) {
      expect(suggestDomain(typed!), typed).toBe(meant);
    }
    // A letter left out of a three-letter name leaves a two-letter one, which companies hold (al.com, ao.com); a
    // letter added at either end of a word makes another word (olive.com, homes.nl).
    for (const d of ['we.de', 'al.com', 'ao.com', 'olive.com', 'homes.nl', 'aon.com', 'msi.com', 'max.com']) {
      expect(suggestDomain(d), d).toBeUndefined();
    }
  });

  it("moves a TLD onto another country's only from com, net or org, or for a long name", () => {
    expect(suggestDomain('gmail.co')).toBe('gmail.com');
    expect(suggestDomain('gmail.cm')).toBe('gmail.com');
    expect(suggestDomain('t-online.se')).toBe('t-online.de');
    expect(suggestDomain('web.dr')).toBe('web.de');
    for (const d of ['gmx.se', 'mail.eu', 'hotmail.fi', 'web.se']) expect(suggestDomain(d), d).toBeUndefined();
    // Australia has no co.au: Yahoo's is com.au.
    expect(suggestDomain('yahoo.co.au')).toBe('yahoo.com.au');
  });

  it('corrects a slip across the dot, and none where two domains are as near', () => {
    expect(suggestDomain('gmailcom')).toBe('gmail.com');
    expect(suggestDomain('gmai.lcom')).toBe('gmail.com');
    expect(suggestDomain('GMIAL.COM')).toBe('gmail.com');
    expect(suggestDomain('hotmail.dr')).toBeUndefined(); // hotmail.de or hotmail.fr
    expect(suggestDomain('tmail.com')).toBeUndefined(); // gmail.com or ymail.com
  });

  it('tells a likely slip from an unlikely one: a neighbouring key, a swap or a doubled letter before any other', () => {
    expect(slipBetween('gmail.com', 'gmial.com')).toMatchObject({ kind: 'swap', start: 2, end: 4, cost: 0.5 });
    expect(slipBetween('gmail.com', 'gmaul.com')).toMatchObject({ kind: 'substitution', cost: 0.5 });
    expect(slipBetween('gmail.com', 'gmazl.com')).toMatchObject({ kind: 'substitution', cost: 1 });
    expect(slipBetween('gmail.com', 'gmaill.com')).toMatchObject({ kind: 'extra', start: 5, cost: 0.5 });
    expect(slipBetween('gmail.com', 'gmaiul.com')).toMatchObject({ kind: 'extra', cost: 0.75 });
    expect(slipBetween('gmail.com', 'gmal.com')).toMatchObject({ kind: 'omission', start: 3, end: 4, cost: 0.75 });
    expect(slipBetween('gmail.com', 'gmail.com')).toBeUndefined();
    expect(slipBetween('gmail.com', 'gmali.cmo')).toBeUndefined();
  });

  it('finds one edit exactly where the optimal string alignment distance is at most 1', () => {
    const rand = mulberry32(33);
    const letters = 'abc.';
    const word = () => Array.from({ length: Math.floor(rand() * 6) }, () => letters[Math.floor(rand() * 4)]).join('');
    let near = 0;
    for (let n = 0; n < 20_000; n++) {
      const a = word();
      const b = rand() < 0.5 ? word() : edited(a, rand);
      expect(slipBetween(a, b) !== undefined, `${a} ${b}`).toBe(distance(a, b) === 1);
      if (distance(a, b) === 1) near++;
    }
    expect(near).toBeGreaterThan(5000);
  });
});

/** `a` with one random edit (or none). */
function edited(a: string, rand: () => number): string {
  const at = Math.floor(rand() * (a.length + 1));
  const kind = Math.floor(rand() * 4);
  if (kind === 0) return `${a.slice(0, at)}b${a.slice(at)}`;
  if (kind === 1) return a.slice(0, at) + a.slice(at + 1);
  if (kind === 2) return `${a.slice(0, at)}c${a.slice(at + 1)}`;
  return a.slice(0, at) + a.charAt(at + 1) + a.charAt(at) + a.slice(at + 2);
}

/** The reference: optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
