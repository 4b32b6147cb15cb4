// The OS credential store, through @napi-rs/keyring (prebuilt, nothing compiled on install), loaded only when a token
// is read or written there, never at start-up.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { messageOf } from '../errors.js';

/** Whether to try the store for a new sign-in; `quiet`: where no store is expected (CI, whose tokens come from its secrets), nothing is said. */
export type StoreAvailability = { available: true } | { available: false; why: string; quiet: boolean };

export function isCi(env: Record<string, string | undefined>): boolean {
  return ![undefined, '', '0', 'false'].includes(env.CI);
}

/** CI keeps tokens in its secrets; on Linux the Secret Service needs a session bus (none over ssh, in a container). */
export function credentialStoreAvailability(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): StoreAvailability {
  if (isCi(env)) return { available: false, why: 'CI is set', quiet: true };
  if (platform === 'darwin' || platform === 'win32') return { available: true };
  const runtimeBus = env.XDG_RUNTIME_DIR ? existsSync(join(env.XDG_RUNTIME_DIR, 'bus')) : false;
  if (env.DBUS_SESSION_BUS_ADDRESS || runtimeBus) return { available: true };
  return {
    available: false,
    why: 'no session bus answers here (DBUS_SESSION_BUS_ADDRESS is unset: ssh, a server, a container), so no credential store can',
    quiet: false,
  };
}

/** A failure of the store itself (locked, no Secret Service answering, no build for this platform). */
export class CredentialStoreError extends Error {}

export class CredentialStore {
  constructor(private readonly service: string) {}

  get(account: string): string | undefined {
    return attempt('read', () => this.entry(account).getPassword() ?? undefined);
  }

  set(account: string, secret: string): void {
    attempt('write', () => this.entry(account).setPassword(secret));
  }

  delete(account: string): void {
    attempt('delete', () => this.entry(account).deletePassword());
  }

  private entry(account: string) {
    // On Linux, the Secret Service only: the library's fallback, the kernel keyring, forgets at logout.
    return new (library().Entry)(this.service, account, { linux: { store: 'secret-service' } });
  }
}

type Library = typeof import('@napi-rs/keyring');
let loaded: Library | undefined;

function library(): Library {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@napi-rs/keyring') as Library;
  } catch (error) {
    throw new CredentialStoreError(`@napi-rs/keyring cannot be loaded here (${firstLine(error)})`);
  }
  return loaded;
}

function attempt<T>(what: string, action: () => T): T {
  try {
    return action();
  } catch (error) {
    if (error instanceof CredentialStoreError) throw error;
    throw new CredentialStoreError(`the OS credential store could not ${what} a token: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  return messageOf(error).split('\n')[0]!;
}
