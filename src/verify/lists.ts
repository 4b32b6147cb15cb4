export { isDisposableDomain } from './disposable.js';

/**
 * Local parts that name a function rather than a person (RFC 2142 mailbox names and their common
 * kin). Compared after lower-casing, dropping a `+tag` and the separators `.`, `-` and `_`, so
 * `No-Reply`, `no_reply` and `noreply+x` all match `noreply`.
 */
export const ROLE_ACCOUNTS: readonly string[] = [
  // RFC 2142
  'abuse',
  'ftp',
  'hostmaster',
  'info',
  'marketing',
  'news',
  'noc',
  'postmaster',
  'sales',
  'security',
  'support',
  'usenet',
  'uucp',
  'webmaster',
  'www',
  // common function addresses
  'accounting',
  'accounts',
  'admin',
  'administrator',
  'billing',
  'careers',
  'compliance',
  'contact',
  'customerservice',
  'devnull',
  'donotreply',
  'enquiries',
  'feedback',
  'hello',
  'help',
  'helpdesk',
  'hr',
  'inquiries',
  'invoice',
  'invoices',
  'it',
  'jobs',
  'legal',
  'list',
  'listserv',
  'mail',
  'mailerdaemon',
  'majordomo',
  'media',
  'newsletter',
  'nobody',
  'noreply',
  'office',
  'orders',
  'press',
  'privacy',
  'recruitment',
  'root',
  'service',
  'spam',
  'team',
];

/** Mailbox providers anyone can sign up to, by exact domain. */
export const FREE_PROVIDERS: readonly string[] = [
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'yahoo.co.jp',
  'yahoo.co.in',
  'ymail.com',
  'rocketmail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'hotmail.de',
  'hotmail.it',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'aim.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'gmx.at',
  'gmx.ch',
  'web.de',
  't-online.de',
  'mail.ru',
  'inbox.ru',
  'list.ru',
  'bk.ru',
  'rambler.ru',
  'yandex.ru',
  'yandex.com',
  'ya.ru',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'zoho.com',
  'zohomail.com',
  'mail.com',
  'email.com',
  'fastmail.com',
  'tutanota.com',
  'tuta.io',
  'hushmail.com',
  'qq.com',
  '163.com',
  '126.com',
  'sina.com',
  'naver.com',
  'daum.net',
  'hanmail.net',
  'rediffmail.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'seznam.cz',
  'wp.pl',
  'o2.pl',
  'interia.pl',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
];

const roles: ReadonlySet<string> = new Set(ROLE_ACCOUNTS);
const free: ReadonlySet<string> = new Set(FREE_PROVIDERS);

/** `Info+news@…`, `no-reply@…`, `postmaster@…`: the address belongs to a function, not a person. */
export function isRoleAccount(local: string): boolean {
  let name = local;
  if (name.charCodeAt(0) === 34 /* " */) return false;
  const plus = name.indexOf('+');
  if (plus > 0) name = name.slice(0, plus);
  name = name.toLowerCase().replace(/[._-]/g, '');
  return roles.has(name);
}

/** An exact match of the (ASCII, lower-case) domain against the free providers. */
export function isFreeProvider(asciiDomain: string): boolean {
  return free.has(asciiDomain.toLowerCase());
}
