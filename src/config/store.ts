import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { messageOf, UsageError } from '../errors.js';

export type ProfileData = Partial<Record<string, string>>;

interface StoreShape {
  profiles: Record<string, ProfileData>;
  /** Credentials for the built-in sandbox, kept apart so they never meet a real service. */
  sandbox: Record<string, ProfileData>;
}

export type ProfileScope = 'profiles' | 'sandbox';

/** Profiles on disk: one JSON file, mode 0600, read afresh at each access (others write it too), replaced whole. */
export class ProfileStore {
  readonly path: string;

  /** `warn` hears of what was wrong and has been put right (a file others could read). */
  constructor(
    readonly dir: string,
    warn: (message: string) => void = () => {},
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    this.path = join(dir, 'config.json');
    makePrivate(this.path, warn);
    const found = this.load();
    if (found.profiles === undefined || found.sandbox === undefined) this.save({ ...found, ...this.all() });
  }

  profileNames(): string[] {
    return Object.keys(this.all().profiles);
  }

  has(name: string, scope: ProfileScope = 'profiles'): boolean {
    return Object.hasOwn(this.all()[scope], name);
  }

  read(name: string, scope: ProfileScope = 'profiles'): ProfileData {
    return { ...(this.all()[scope][name] ?? {}) };
  }

  /** Sets (string) or removes (undefined) keys in one write. */
  update(name: string, changes: ProfileData, scope: ProfileScope = 'profiles'): void {
    const file = this.load();
    const all = withDefaults(file);
    const next: ProfileData = { ...all[scope][name], ...changes };
    for (const [key, value] of Object.entries(next)) if (value === undefined) delete next[key];
    this.save({ ...file, ...all, [scope]: { ...all[scope], [name]: next } });
  }

  private all(): StoreShape {
    return withDefaults(this.load());
  }

  /** The file as it is now ({} when there is none); one that cannot be read is a usage error naming it. */
  private load(): Partial<StoreShape> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw unreadableConfig(this.path, error);
    }
    try {
      const data: unknown = JSON.parse(text);
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new SyntaxError('not an object');
      return data as Partial<StoreShape>;
    } catch (error) {
      throw unreadableConfig(this.path, error);
    }
  }

  private save(data: Partial<StoreShape>): void {
    writeFileAtomic(this.path, `${JSON.stringify(data, undefined, '\t')}\n`, 0o600);
    chmodSync(this.path, 0o600);
  }
}

function withDefaults(file: Partial<StoreShape>): StoreShape {
  return { profiles: file.profiles ?? {}, sandbox: file.sandbox ?? {} };
}

/** A file of tokens that others can read is made private at once, and the user told: it may have been copied. */
function makePrivate(path: string, warn: (message: string) => void): void {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return; // not there yet: it is created 0600
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
  if (!(error instanceof SyntaxError)) return new UsageError(`${path}: cannot be read (${messageOf(error)})`, hint);
  const at = /line (\d+) column (\d+)/.exec(error.message);
  return new UsageError(at ? `${path}:${at[1]}: not valid JSON (column ${at[2]})` : `${path}: not valid JSON`, hint);
}
