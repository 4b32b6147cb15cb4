import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';

export type ProfileData = Partial<Record<string, string>>;

interface StoreShape {
  profiles: Record<string, ProfileData>;
  /** Credentials for the built-in sandbox, kept apart so they never meet a real service. */
  sandbox: Record<string, ProfileData>;
}

export type ProfileScope = 'profiles' | 'sandbox';

/** Profiles on disk: one JSON file, mode 0600, in a 0700 directory. */
export class ProfileStore {
  private readonly conf: Conf<StoreShape>;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    this.conf = new Conf<StoreShape>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      // Profile names may contain dots; we address nested objects ourselves.
      accessPropertiesByDotNotation: false,
      defaults: { profiles: {}, sandbox: {} },
    });
  }

  get path(): string {
    return this.conf.path;
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles'));
  }

  has(name: string, scope: ProfileScope = 'profiles'): boolean {
    return Object.hasOwn(this.conf.get(scope), name);
  }

  read(name: string, scope: ProfileScope = 'profiles'): ProfileData {
    return { ...(this.conf.get(scope)[name] ?? {}) };
  }

  /** Sets (string) or removes (undefined) keys in one write. */
  update(name: string, changes: ProfileData, scope: ProfileScope = 'profiles'): void {
    const all = { ...this.conf.get(scope) };
    const next: ProfileData = { ...(all[name] ?? {}) };
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    all[name] = next;
    this.conf.set(scope, all);
    chmodSync(this.conf.path, 0o600);
  }
}
