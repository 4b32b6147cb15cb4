// The keys a profile holds. Secrets live in the OS credential store or the 0600 file, never shown or taken as argument.

export interface KeyInfo {
  key: string;
  description: string;
  secret?: boolean;
  /** Set by login/register, not by hand. */
  managed?: boolean;
}

export const PROFILE_KEYS: readonly KeyInfo[] = [
  { key: 'api-url', description: 'platform base URL ({base_url})' },
  { key: 'clean-url', description: 'email cleaning base URL ({email_clean_url})' },
  { key: 'rate', description: 'clean request limit, N/WINDOW (default 50/5m)' },
  { key: 'shared', description: 'redis://HOST:PORT[/DB] shared by runners on several machines (limit, cache)' },
  {
    key: 'token-storage',
    description: 'where a sign-in keeps tokens: keyring (the OS credential store where there is one; default) or file',
  },
  { key: 'token', description: 'platform bearer token', secret: true, managed: true },
  { key: 'cdp-token', description: 'platform cdp-token from login', secret: true, managed: true },
  { key: 'clean-token', description: 'email cleaning bearer token', secret: true, managed: true },
  { key: 'user-id', description: 'signed-in platform user id', managed: true },
  { key: 'email', description: 'signed-in email address', managed: true },
  {
    key: 'brand',
    description: 'current brand id, as the platform last named it (`me --brand ID` chooses)',
    managed: true,
  },
];

export function keyInfo(key: string): KeyInfo | undefined {
  return PROFILE_KEYS.find((k) => k.key === key);
}

/** Enough to recognise a token, never to use or guess it: its last 4 characters, and none of a short one. */
export function maskSecret(value: string): string {
  if (value.length < 16) return '****';
  return `…${value.slice(-4)}`;
}
