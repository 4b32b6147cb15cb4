import { UsageError } from '../errors.js';
import type { ProfileData, ProfileScope, ProfileStore } from './store.js';
import { type ServiceUrls, validateUrl } from './urls.js';

export type Service = 'platform' | 'clean';
/** env: MAILCLEAN_TOKEN or MAILCLEAN_CLEAN_TOKEN; profile: the named profile; sandbox: the built-in sandbox's own account. */
export type TokenSource = 'env' | 'profile' | 'sandbox';

export function tokenEnvName(service: Service | 'cdp'): string | undefined {
  return service === 'platform' ? 'MAILCLEAN_TOKEN' : service === 'clean' ? 'MAILCLEAN_CLEAN_TOKEN' : undefined;
}

/**
 * One named profile: its settings, where its credentials live, and which token applies (environment first).
 * A profile that holds real credentials, or a run with a token in the environment, never uses the built-in
 * sandbox's separate account store.
 */
export class Profile {
  constructor(
    private readonly store: ProfileStore,
    readonly name: string,
    private readonly env: Record<string, string | undefined>,
    /** URLs given for this run by flag or environment. */
    private readonly given: ServiceUrls,
  ) {}

  /** A profile other than `default` must exist before commands read from it. */
  requireKnown(): void {
    if (this.name === 'default' || this.store.has(this.name)) return;
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

  /** Flag, then environment, then the profile's URLs. */
  urls(): { apiUrl?: string; cleanUrl?: string } {
    const settings = this.settings();
    const stored = (key: keyof ServiceUrls) =>
      settings[key] ? validateUrl(settings[key]!, `${key} in profile "${this.name}"`) : undefined;
    return {
      apiUrl: this.given['api-url'] ?? stored('api-url'),
      cleanUrl: this.given['clean-url'] ?? stored('clean-url'),
    };
  }

  scope(): ProfileScope {
    const { apiUrl, cleanUrl } = this.urls();
    if (apiUrl || cleanUrl) return 'profiles';
    return this.holdsRealCredentials() ? 'profiles' : 'sandbox';
  }

  /** No endpoint configured and no real credentials: account commands talk to the built-in sandbox. */
  usesSandbox(): boolean {
    return this.scope() === 'sandbox';
  }

  private holdsRealCredentials(): boolean {
    const s = this.settings();
    return Boolean(
      s.token || s['clean-token'] || s['cdp-token'] || this.env.MAILCLEAN_TOKEN || this.env.MAILCLEAN_CLEAN_TOKEN,
    );
  }

  credentials(): ProfileData {
    return this.store.read(this.name, this.scope());
  }

  saveCredentials(changes: ProfileData): void {
    this.store.update(this.name, changes, this.scope());
  }

  /**
   * After a successful login or register: the tokens, and the URLs given by flag or environment, go to the
   * profile together (as `gh auth login --hostname` does), so later commands reach the same service.
   */
  saveSignIn(changes: ProfileData): void {
    const scope = this.scope();
    this.store.update(this.name, { ...(scope === 'profiles' ? this.given : {}), ...changes }, scope);
  }

  /** The bearer token for a service and where it came from. */
  token(service: Service | 'cdp'): { value?: string; source?: TokenSource } {
    const envName = tokenEnvName(service);
    if (envName && this.env[envName]) return { value: this.env[envName], source: 'env' };
    const key = service === 'platform' ? 'token' : service === 'clean' ? 'clean-token' : 'cdp-token';
    const stored = this.credentials()[key];
    if (!stored) return {};
    return { value: stored, source: this.usesSandbox() ? 'sandbox' : 'profile' };
  }

  /** Where a token of this source lives, in words: `MAILCLEAN_TOKEN`, `profile "default"`, `the built-in sandbox account`. */
  tokenPlace(service: Service | 'cdp', source: TokenSource | undefined): string {
    if (source === 'env') return tokenEnvName(service) ?? 'the environment';
    if (source === 'sandbox') return 'the built-in sandbox account';
    return `profile "${this.name}"`;
  }

  /** The path of the file profiles live in. */
  get path(): string {
    return this.store.path;
  }

  /** Sets (string) or removes (undefined) settings of this profile. */
  updateSettings(changes: ProfileData): void {
    this.store.update(this.name, changes);
  }
}
