// Where a profile's tokens live: the OS credential store, or the 0600 file. The record names those in the store
// (`in-keyring`), so the store is asked only for a token that is used.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type CredentialStore, CredentialStoreError } from './keyring.js';
import { PROFILE_KEYS } from './keys.js';
import type { ProfileData, ProfileScope, ProfileStore } from './store.js';

export type TokenStorage = 'keyring' | 'file';

export const SECRET_KEYS: readonly string[] = PROFILE_KEYS.filter((k) => k.secret).map((k) => k.key);
/** The record's list of its tokens held by the OS credential store. */
export const KEYRING_MARK = 'in-keyring';

export function heldByKeyring(record: ProfileData): string[] {
  return (record[KEYRING_MARK] ?? '').split(',').filter((key) => SECRET_KEYS.includes(key));
}

/** `mailclean` for the usual config directory; another directory's profiles are kept apart under its path. */
export function keyringService(configDir: string, home = homedir()): string {
  return configDir === join(home, '.config', 'mailclean') ? 'mailclean' : `mailclean:${configDir}`;
}

export class ProfileTokens {
  /** Tokens read from the store in this process (one question each), or why one could not be. */
  private readonly read = new Map<string, { value?: string; problem?: string }>();

  constructor(
    private readonly store: ProfileStore,
    private readonly keyring: CredentialStore,
    private readonly name: string,
  ) {}

  where(record: ProfileData, key: string): TokenStorage | undefined {
    if (heldByKeyring(record).includes(key)) return 'keyring';
    return record[key] ? 'file' : undefined;
  }

  /** A token of the record: from the file, or asked of the store once (a store that fails says why). */
  value(record: ProfileData, key: string): { value?: string; problem?: string } {
    if (this.where(record, key) !== 'keyring') return { value: record[key] };
    let found = this.read.get(key);
    if (!found) {
      try {
        const value = this.keyring.get(this.account(key));
        found = value ? { value } : { problem: 'it is no longer in the OS credential store' };
      } catch (error) {
        if (!(error instanceof CredentialStoreError)) throw error;
        found = { problem: error.message };
      }
      this.read.set(key, found);
    }
    return found;
  }

  /**
   * Applies `changes` to the record, its tokens where `storage` says, moving the record's other tokens there too.
   * A store that fails throws CredentialStoreError before the file is changed.
   */
  write(scope: ProfileScope, changes: ProfileData, storage: TokenStorage): void {
    const record = this.store.read(this.name, scope);
    const next: ProfileData = { ...changes };
    const held = new Set(heldByKeyring(record));
    const placed = storage === 'keyring' ? this.placeInKeyring(record, changes, held) : [];
    for (const key of SECRET_KEYS) {
      if (placed.includes(key)) next[key] = undefined;
      else if (key in changes || storage === 'file') {
        // One the store cannot give back stays there, named by the record, rather than be lost.
        const value = key in changes ? changes[key] : this.value(record, key).value;
        if (!(key in changes) && value === undefined && held.has(key)) continue;
        if (held.delete(key)) this.forget(key);
        next[key] = value;
      }
    }
    next[KEYRING_MARK] = held.size > 0 ? [...held].join(',') : undefined;
    this.store.update(this.name, next, scope);
  }

  /** Puts the new tokens and the file's in the store (adding them to `held`); undone if the store fails midway. */
  private placeInKeyring(record: ProfileData, changes: ProfileData, held: Set<string>): string[] {
    const placed: string[] = [];
    try {
      for (const key of SECRET_KEYS) {
        const value = key in changes ? changes[key] : held.has(key) ? undefined : record[key];
        if (value === undefined) continue;
        this.keyring.set(this.account(key), value);
        this.read.set(key, { value });
        placed.push(key);
      }
    } catch (error) {
      for (const key of placed) if (!held.has(key)) this.forget(key);
      throw error;
    }
    for (const key of placed) held.add(key);
    return placed;
  }

  /** A token removed from the store: one the store cannot delete stays there, but the profile no longer uses it. */
  private forget(key: string): void {
    this.read.delete(key);
    try {
      this.keyring.delete(this.account(key));
    } catch (error) {
      if (!(error instanceof CredentialStoreError)) throw error;
    }
  }

  private account(key: string): string {
    return `${this.name}/${key}`;
  }
}
