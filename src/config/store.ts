import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { UsageError } from '../errors.js';

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

  /** `warn` hears of what was wrong and has been put right (a file others could read). */
  constructor(
    readonly dir: string,
    warn: (message: string) => void = () => {},
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    makePrivate(join(dir, 'config.json'), warn);
    try {
      this.conf = new Conf<StoreShape>({
        cwd: dir,
        configName: 'config',
        configFileMode: 0o600,
        // Profile names may contain dots; we address nested objects ourselves.
        accessPropertiesByDotNotation: false,
        defaults: { profiles: {}, sandbox: {} },
      });
    } catch (error) {
      throw unreadableConfig(join(dir, 'config.json'), error);
    }
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

/** A file of tokens that others can read is made private at once, and the user told: it may have been copied. */
function makePrivate(path: string, warn: (message: string) => void): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return; // not there yet: conf creates it 0600
  }
  if ((mode & 0o077) === 0) return;
  chmodSync(path, 0o600);
  warn(
    `${path} was readable by others (mode ${mode.toString(8).padStart(4, '0')}); it is now 0600. If others could log in here, sign in again to replace its tokens.`,
  );
}

/** The file as the user can find the fault: its line and column, never an excerpt (it holds tokens). */
function unreadableConfig(path: string, error: unknown): UsageError {
  const hint = 'fix it, or move it away to start afresh (it holds your tokens: sign in again after)';
  if (!(error instanceof SyntaxError))
    return new UsageError(`${path}: cannot be read (${error instanceof Error ? error.message : String(error)})`, hint);
  let at: RegExpExecArray | null = null;
  try {
    JSON.parse(readFileSync(path, 'utf8'));
  } catch (parseError) {
    at = /line (\d+) column (\d+)/.exec(String((parseError as Error).message));
  }
  return new UsageError(at ? `${path}:${at[1]}: not valid JSON (column ${at[2]})` : `${path}: not valid JSON`, hint);
}
