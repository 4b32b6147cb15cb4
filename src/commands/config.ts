import { checkSharedUrl } from '../clean/state/open-state.js';
import { keyInfo, maskSecret, PROFILE_KEYS } from '../config/keys.js';
import { parseRate } from '../config/rate.js';
import { KEYRING_MARK } from '../config/tokens.js';
import { validateUrl } from '../config/urls.js';
import { UsageError } from '../errors.js';
import type { Factory } from '../factory.js';
import type { JsonFlag } from '../io/json.js';
import { redactUrl } from '../redact.js';

const PROFILE_KEY_NAMES = PROFILE_KEYS.map((k) => k.key);

function known(key: string) {
  const info = keyInfo(key);
  if (!info) throw new UsageError(`unknown key "${key}"`, `keys: ${PROFILE_KEY_NAMES.join(', ')}`);
  return info;
}

export async function get({ key }: { key: string }, f: Factory): Promise<number> {
  const info = known(key);
  if (info.secret)
    throw new UsageError(`${info.key} is a secret and is not printed here`, 'use `mailclean auth token` in scripts');
  const profile = (await f.profile()).requireKnown();
  const value = profile.settings()[info.key];
  if (value === undefined) return 1;
  f.io.data(`${redactUrl(value)}\n`);
  return 0;
}

export async function set({ key, value }: { key: string; value: string }, f: Factory): Promise<number> {
  const info = known(key);
  if (info.secret)
    throw new UsageError(
      `${info.key} cannot be set from an argument (it would show in your shell history)`,
      'use `mailclean login` or `mailclean login --with-token`',
    );
  if (info.key === 'api-url' || info.key === 'clean-url') validateUrl(value, info.key);
  if (info.key === 'rate') parseRate(value, 'rate');
  if (info.key === 'shared') checkSharedUrl(value, 'shared');
  if (info.key === 'token-storage' && value !== 'keyring' && value !== 'file')
    throw new UsageError(`token-storage must be keyring or file, not "${value}"`);
  (await f.profile()).updateSettings({ [info.key]: value.replace(/\/+$/, '') });
  return 0;
}

export async function unset({ key }: { key: string }, f: Factory): Promise<number> {
  const info = known(key);
  const profile = (await f.profile()).requireKnown();
  profile.updateSettings({ [info.key]: undefined });
  return 0;
}

export async function list(o: { json?: JsonFlag }, f: Factory): Promise<number> {
  const profile = (await f.profile()).requireKnown();
  const { [KEYRING_MARK]: _held, ...settings } = profile.settings();
  const shown: Record<string, string> = Object.fromEntries(
    Object.entries(settings)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([k, v]) => [k, keyInfo(k)?.secret ? maskSecret(v) : redactUrl(v)]),
  );
  // The OS credential store is not asked: listing settings reads no token.
  for (const [key, where] of Object.entries(profile.storedTokens('profiles')))
    if (where === 'keyring') shown[key] = '(in the OS credential store)';
  const lines = Object.entries(shown).map(([k, v]) => `${k}=${v}\n`);
  if (o.json !== undefined) f.io.json(shown, o.json, PROFILE_KEY_NAMES);
  else f.io.data(lines.join(''));
  return 0;
}

export async function path(f: Factory): Promise<number> {
  f.io.data(`${(await f.profile()).path}\n`);
  return 0;
}
