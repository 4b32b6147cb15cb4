import { UsageError } from '../errors.js';
import { type CredentialStore, CredentialStoreError, credentialStoreAvailability } from './keyring.js';
import type { ProfileData, ProfileScope, ProfileStore } from './store.js';
import { heldByKeyring, KEYRING_MARK, ProfileTokens, SECRET_KEYS, type TokenStorage } from './tokens.js';
import { type ServiceUrls, validateUrl } from './urls.js';

export type Service = 'platform' | 'clean';
/** env: MAILCLEAN_TOKEN or MAILCLEAN_CLEAN_TOKEN; profile: the named profile; sandbox: the built-in sandbox's. */
export type TokenSource = 'env' | 'profile' | 'sandbox';

/** What a profile needs of its command besides the store: where to say things, and the secrets to mask. */
export interface ProfileContext {
  env: Record<string, string | undefined>;
  /** URLs given for this command by flag or environment. */
  given: ServiceUrls;
  keyring: CredentialStore;
  /** Each token as it is read, to be masked in all the command writes. */
  remember: (secret: string) => void;
  warn: (message: string) => void;
  note: (message: string) => void;
}

const TOKEN_KEYS = { platform: 'token', clean: 'clean-token', cdp: 'cdp-token' } as const;

export function tokenEnvName(service: Service | 'cdp'): string | undefined {
  return service === 'platform' ? 'MAILCLEAN_TOKEN' : service === 'clean' ? 'MAILCLEAN_CLEAN_TOKEN' : undefined;
}

/** What to do when a service refuses the token it was given, as its source allows: a login cannot fix a variable's. */
export function refusedTokenHint(service: Service, source: TokenSource | undefined): string {
  const envName = tokenEnvName(service);
  if (source === 'env' && envName)
    return `${envName} holds a token ${service === 'clean' ? 'the cleaning service' : 'the platform'} does not accept; fix it or unset it`;
  return service === 'clean' ? 'run `mailclean login --service clean`' : 'run `mailclean login`';
}

/**
 * One named profile: its settings, where its credentials live, and which token applies (environment first). Real
 * credentials, in the profile or the environment, keep a command away from the built-in sandbox's accounts.
 */
export class Profile {
  private readonly tokens: ProfileTokens;
  private fileStorageAsked = false;
  private storageNoted = false;
  private readonly warned = new Set<string>();

  constructor(
    private readonly store: ProfileStore,
    readonly name: string,
    private readonly context: ProfileContext,
  ) {
    this.tokens = new ProfileTokens(store, context.keyring, name);
  }

  /** This profile, which must exist (unless it is `default`) before commands read from it. */
  requireKnown(): this {
    if (this.name === 'default' || this.store.has(this.name)) return this;
    const known = this.store.profileNames();
    throw new UsageError(
      `unknown profile "${this.name}"`,
      known.length
        ? `known profiles: ${known.join(', ')}`
        : 'create one with `mailclean config set api-url URL --profile NAME`',
    );
  }

  /** Settings (endpoints, rate) always come from the named profile. */
  settings(): ProfileData {
    return this.store.read(this.name);
  }

  /** Where each stored token is kept (undefined: none), without asking the OS credential store for any. */
  storedTokens(scope = this.scope()): Partial<Record<string, TokenStorage>> {
    const record = this.store.read(this.name, scope);
    return Object.fromEntries(SECRET_KEYS.map((key) => [key, this.tokens.where(record, key)]));
  }

  /** Flag, then environment, then the profile's URLs. */
  urls(): { apiUrl?: string; cleanUrl?: string } {
    const settings = this.settings();
    const stored = (key: keyof ServiceUrls) =>
      settings[key] ? validateUrl(settings[key]!, `${key} in profile "${this.name}"`) : undefined;
    return {
      apiUrl: this.context.given['api-url'] ?? stored('api-url'),
      cleanUrl: this.context.given['clean-url'] ?? stored('clean-url'),
    };
  }

  private scope(): ProfileScope {
    const { apiUrl, cleanUrl } = this.urls();
    const settings = this.settings();
    const stored = SECRET_KEYS.some((key) => settings[key]) || heldByKeyring(settings).length > 0;
    return apiUrl || cleanUrl || stored || this.envToken('platform') || this.envToken('clean') ? 'profiles' : 'sandbox';
  }

  /** No endpoint configured and no real credentials: account commands talk to the built-in sandbox. */
  usesSandbox(): boolean {
    return this.scope() === 'sandbox';
  }

  /** The record: settings, sign-in facts and tokens; one kept in the OS credential store is read if it is used. */
  credentials(): ProfileData {
    const { [KEYRING_MARK]: held, ...record } = this.store.read(this.name, this.scope());
    for (const key of heldByKeyring({ [KEYRING_MARK]: held }))
      Object.defineProperty(record, key, { enumerable: true, get: () => this.storedToken(key) });
    return record;
  }

  saveCredentials(changes: ProfileData): void {
    this.change(this.scope(), changes);
  }

  /** Tokens go where the record keeps them now (a token given anew: the store if it holds some, else the file). */
  private change(scope: ProfileScope, changes: ProfileData): void {
    const held = heldByKeyring(this.store.read(this.name, scope)).length > 0;
    if (SECRET_KEYS.some((key) => key in changes)) this.tokens.write(scope, changes, held ? 'keyring' : 'file');
    else this.store.update(this.name, changes, scope);
  }

  /**
   * After a login or register: the tokens and the URLs given for this command go to the profile together (as `gh auth
   * login --hostname` does); tokens to the OS credential store where there is one, else to the file.
   */
  saveSignIn(changes: ProfileData): void {
    const scope = this.scope();
    const all = { ...(scope === 'profiles' ? this.context.given : {}), ...changes };
    if (this.signInStorage(scope) === 'keyring') {
      try {
        this.tokens.write(scope, all, 'keyring');
        return;
      } catch (error) {
        if (!(error instanceof CredentialStoreError)) throw error;
        this.noteFileStorage(error.message);
      }
    }
    this.tokens.write(scope, all, 'file');
  }

  /** --insecure-storage: this sign-in keeps the tokens in the file (and moves those in the store there). */
  keepTokensInFile(): void {
    this.fileStorageAsked = true;
  }

  /** The sandbox's tokens reach nothing outside this machine: they stay in the file, as its accounts do. */
  private signInStorage(scope: ProfileScope): TokenStorage {
    if (scope === 'sandbox' || this.fileStorageAsked || this.settings()['token-storage'] === 'file') return 'file';
    const availability = credentialStoreAvailability(this.context.env);
    if (availability.available) return 'keyring';
    if (!availability.quiet) this.noteFileStorage(availability.why);
    return 'file';
  }

  private noteFileStorage(why: string): void {
    if (this.storageNoted) return;
    this.storageNoted = true;
    this.context.note(
      `Tokens are kept in ${this.path} (mode 0600): ${why}. To keep them in the ` +
        'OS credential store, log in from a desktop session, or in one with a Secret Service running ' +
        "(`dbus-run-session -- sh -c 'gnome-keyring-daemon --unlock </dev/null; exec $SHELL'`); " +
        '`mailclean config set token-storage file` keeps them in the file without this note.',
    );
  }

  token(service: Service | 'cdp'): { value?: string; source?: TokenSource } {
    const fromEnv = this.envToken(service);
    if (fromEnv) return { value: fromEnv, source: 'env' };
    const value = this.storedToken(TOKEN_KEYS[service]);
    return value ? { value, source: this.usesSandbox() ? 'sandbox' : 'profile' } : {};
  }

  /** A token of the record, wherever it is kept; one the store cannot give is warned about once. */
  private storedToken(key: string): string | undefined {
    const { value, problem } = this.tokens.value(this.store.read(this.name, this.scope()), key);
    if (problem && !this.warned.has(key)) {
      this.warned.add(key);
      this.context.warn(`the ${key} of profile "${this.name}" cannot be used: ${problem}; sign in again`);
    }
    if (value) this.context.remember(value);
    return value;
  }

  /** Where the stored token of a service is kept (undefined for none, or one from the environment). */
  tokenStorage(service: Service | 'cdp'): TokenStorage | undefined {
    if (this.envToken(service)) return undefined;
    return this.tokens.where(this.store.read(this.name, this.scope()), TOKEN_KEYS[service]);
  }

  private envToken(service: Service | 'cdp'): string | undefined {
    const envName = tokenEnvName(service);
    return envName ? this.context.env[envName] || undefined : undefined;
  }

  /** Where a token of this source lives, in words: `MAILCLEAN_TOKEN`, `profile "default"`, the sandbox account. */
  tokenPlace(service: Service | 'cdp', source: TokenSource | undefined): string {
    if (source === 'env') return tokenEnvName(service) ?? 'the environment';
    if (source === 'sandbox') return 'the built-in sandbox account';
    return `profile "${this.name}"`;
  }

  get path(): string {
    return this.store.path;
  }

  updateSettings(changes: ProfileData): void {
    this.change('profiles', changes);
  }
}
