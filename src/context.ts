import { join } from 'node:path';
import type { IO } from './io/io.js';
import { PLAIN, COLOR, wantsColor, type Style } from './io/style.js';
import { formatJson, selectFields, type JsonFlag } from './io/json.js';
import { configDir, dataDir } from './config/paths.js';
import type { ProfileData, ProfileScope, ProfileStore } from './config/store.js';
import { UsageError } from './errors.js';
import { redactUrl } from './api/redact.js';
import type { HttpClient } from './api/http.js';
import type { PlatformClient } from './api/platform.js';
import type { CleaningClient } from './api/cleaning.js';

export interface GlobalOptions {
  profile?: string;
  apiUrl?: string;
  cleanUrl?: string;
  input?: boolean; // commander's --no-input
  debug?: boolean;
  color?: boolean; // commander's --no-color
  quiet?: boolean;
}

export interface Endpoints {
  apiUrl: string;
  cleanUrl: string;
  /** Both point at the built-in sandbox started in this process. */
  sandbox: boolean;
  /** Names the cleaning service across runs (the in-process sandbox's port changes every run). */
  cleanIdentity: string;
}

export type Service = 'platform' | 'clean';
/** env: MAILCLEAN_TOKEN or MAILCLEAN_CLEAN_TOKEN; profile: the named profile; sandbox: the built-in sandbox's own account. */
export type TokenSource = 'env' | 'profile' | 'sandbox';

interface Closer {
  close(): Promise<void>;
}

/**
 * What a command needs, each piece built on first use: the streams, the profile, the endpoints (starting
 * the built-in sandbox when none are configured) and the service clients.
 */
export class Ctx {
  readonly style: Style;
  private storeInstance?: ProfileStore;
  private endpointsPromise?: Promise<Endpoints>;
  private readonly closers: Closer[] = [];
  private readonly clients = new Map<Service, Promise<HttpClient>>();

  constructor(
    readonly io: IO,
    readonly globals: GlobalOptions,
  ) {
    this.style = wantsColor(io.stderr, io.env, globals.color) ? COLOR : PLAIN;
  }

  get env(): Record<string, string | undefined> {
    return this.io.env;
  }

  get debugEnabled(): boolean {
    return this.globals.debug === true || this.env.MAILCLEAN_DEBUG === '1';
  }

  get quiet(): boolean {
    return this.globals.quiet === true;
  }

  /** Prompts only on a terminal, and never with --no-input, MAILCLEAN_NO_INPUT=1 or CI set. */
  get canPrompt(): boolean {
    if (this.globals.input === false) return false;
    if (this.env.MAILCLEAN_NO_INPUT === '1' || this.env.MAILCLEAN_NO_INPUT === 'true') return false;
    if (this.env.CI !== undefined && this.env.CI !== '' && this.env.CI !== '0' && this.env.CI !== 'false') return false;
    return this.io.stdin.isTTY === true && this.io.stdout.isTTY === true;
  }

  get stdoutIsTTY(): boolean {
    return this.io.stdout.isTTY === true;
  }

  get stderrIsTTY(): boolean {
    return this.io.stderr.isTTY === true;
  }

  out(text: string): void {
    this.io.stdout.write(text);
  }

  json(value: unknown, flag: JsonFlag, fields: readonly string[]): void {
    this.out(formatJson(selectFields(value, flag, fields)));
  }

  /** Informational line on stderr; --quiet silences it. */
  note(message: string): void {
    if (!this.quiet) this.io.stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    this.io.stderr.write(`${this.style.yellow('warning:')} ${message}\n`);
  }

  debug(line: string): void {
    if (this.debugEnabled) this.io.stderr.write(`${this.style.dim(`debug: ${line}`)}\n`);
  }

  // ---- profiles ----

  get profileName(): string {
    return this.globals.profile ?? this.env.MAILCLEAN_PROFILE ?? 'default';
  }

  get configDir(): string {
    return configDir(this.env);
  }

  get dataDir(): string {
    return dataDir(this.env);
  }

  async store(): Promise<ProfileStore> {
    if (!this.storeInstance) {
      const { ProfileStore } = await import('./config/store.js');
      // conf hooks SIGINT/SIGTERM as it loads (through when-exit): take them back at once.
      this.io.signals.claim();
      this.storeInstance = new ProfileStore(this.configDir);
    }
    return this.storeInstance;
  }

  /** A profile other than `default` must exist before commands read from it. */
  async requireKnownProfile(): Promise<void> {
    const name = this.profileName;
    if (name === 'default') return;
    const store = await this.store();
    if (!store.has(name)) {
      const known = store.profileNames();
      throw new UsageError(
        `unknown profile "${name}"`,
        known.length ? `known profiles: ${known.join(', ')}` : 'create one with `mailclean config set api-url URL --profile NAME`',
      );
    }
  }

  /** Settings (endpoints, rate) always come from the named profile. */
  async settings(): Promise<ProfileData> {
    return (await this.store()).read(this.profileName);
  }

  /**
   * Credentials live in the profile, or apart from it when talking to the built-in sandbox. A profile that
   * holds real credentials (or a token in the environment) never falls back to the sandbox, URL or not.
   */
  async credentialScope(): Promise<ProfileScope> {
    const { apiUrl, cleanUrl } = await this.configuredUrls();
    if (apiUrl || cleanUrl) return 'profiles';
    return this.holdsRealCredentials(await this.settings()) ? 'profiles' : 'sandbox';
  }

  /** True when no endpoint is configured, so account commands talk to the built-in sandbox. */
  async usesSandbox(): Promise<boolean> {
    return (await this.credentialScope()) === 'sandbox';
  }

  private holdsRealCredentials(settings: ProfileData): boolean {
    return Boolean(settings.token || settings['clean-token'] || settings['cdp-token'] || this.env.MAILCLEAN_TOKEN || this.env.MAILCLEAN_CLEAN_TOKEN);
  }

  async credentials(): Promise<ProfileData> {
    return (await this.store()).read(this.profileName, await this.credentialScope());
  }

  async saveCredentials(changes: ProfileData): Promise<void> {
    (await this.store()).update(this.profileName, changes, await this.credentialScope());
  }

  /**
   * After a successful login or register: the tokens, and the URLs given by flag or environment, go to the
   * profile together (as `gh auth login --hostname` does), so later commands reach the same service.
   */
  async saveSignIn(changes: ProfileData): Promise<void> {
    const scope = await this.credentialScope();
    const urls = scope === 'profiles' ? await this.givenUrls() : {};
    (await this.store()).update(this.profileName, { ...urls, ...changes }, scope);
  }

  /** The bearer token for a service and where it came from. */
  async token(service: Service | 'cdp'): Promise<{ value?: string; source?: TokenSource }> {
    const envName = tokenEnvName(service);
    if (envName && this.env[envName]) return { value: this.env[envName], source: 'env' };
    const key = service === 'platform' ? 'token' : service === 'clean' ? 'clean-token' : 'cdp-token';
    const stored = (await this.credentials())[key];
    if (!stored) return {};
    return { value: stored, source: (await this.usesSandbox()) ? 'sandbox' : 'profile' };
  }

  /** Where a token of this source lives, in words: `MAILCLEAN_TOKEN`, `profile "default"`, `the built-in sandbox account`. */
  tokenPlace(service: Service | 'cdp', source: TokenSource | undefined): string {
    if (source === 'env') return tokenEnvName(service) ?? 'the environment';
    if (source === 'sandbox') return 'the built-in sandbox account';
    return `profile "${this.profileName}"`;
  }

  // ---- endpoints ----

  endpoints(): Promise<Endpoints> {
    this.endpointsPromise ??= this.resolveEndpoints();
    return this.endpointsPromise;
  }

  /** The configured cleaning service's URL, which names it across runs (journals, limiter state). */
  async cleanIdentity(): Promise<string | undefined> {
    return (await this.configuredUrls()).cleanUrl;
  }

  private async configuredUrls(): Promise<{ apiUrl?: string; cleanUrl?: string }> {
    const given = await this.givenUrls();
    const settings = await this.settings();
    const stored = (key: 'api-url' | 'clean-url') =>
      settings[key] ? validateUrl(settings[key]!, `${key} in profile "${this.profileName}"`) : undefined;
    return { apiUrl: given['api-url'] ?? stored('api-url'), cleanUrl: given['clean-url'] ?? stored('clean-url') };
  }

  /** URLs given for this run by flag or environment (not the profile's). */
  private async givenUrls(): Promise<{ 'api-url'?: string; 'clean-url'?: string }> {
    const pick = (flag: string | undefined, flagName: string, envName: string) => {
      if (flag !== undefined) return validateUrl(flag, flagName);
      if (this.env[envName]) return validateUrl(this.env[envName]!, envName);
      return undefined;
    };
    const urls: { 'api-url'?: string; 'clean-url'?: string } = {};
    const apiUrl = pick(this.globals.apiUrl, '--api-url', 'MAILCLEAN_API_URL');
    const cleanUrl = pick(this.globals.cleanUrl, '--clean-url', 'MAILCLEAN_CLEAN_URL');
    if (apiUrl) urls['api-url'] = apiUrl;
    if (cleanUrl) urls['clean-url'] = cleanUrl;
    return urls;
  }

  /** True when a cleaning service is configured (flag, environment or profile); else `clean` uses the built-in engine. */
  async hasCleaningService(): Promise<boolean> {
    return (await this.configuredUrls()).cleanUrl !== undefined;
  }

  private async resolveEndpoints(): Promise<Endpoints> {
    const { apiUrl, cleanUrl } = await this.configuredUrls();
    if (apiUrl || cleanUrl || !(await this.usesSandbox())) {
      return { apiUrl: apiUrl ?? '', cleanUrl: cleanUrl ?? '', sandbox: false, cleanIdentity: cleanUrl ?? '' };
    }
    const { startSandbox } = await import('./sandbox/server.js');
    const sandboxDir = join(this.dataDir, 'sandbox'); // cleanIdentity() names it the same way
    const sandbox = await startSandbox({
      dataDir: sandboxDir,
      internalToken: this.env.MAILCLEAN_INTERNAL_TOKEN,
    });
    this.closers.push(sandbox);
    this.note(this.style.dim('Using the built-in sandbox (no api-url or clean-url configured); see `mailclean sandbox --help`.'));
    return { apiUrl: sandbox.url, cleanUrl: sandbox.url, sandbox: true, cleanIdentity: `sandbox:${sandboxDir}` };
  }

  private async http(service: Service): Promise<HttpClient> {
    let client = this.clients.get(service);
    if (!client) {
      client = this.buildHttp(service);
      this.clients.set(service, client);
    }
    return client;
  }

  private async buildHttp(service: Service): Promise<HttpClient> {
    const endpoints = await this.endpoints();
    const baseUrl = service === 'platform' ? endpoints.apiUrl : endpoints.cleanUrl;
    if (!baseUrl) {
      const [key, flag] = service === 'platform' ? ['api-url', '--api-url'] : ['clean-url', '--clean-url'];
      const why = endpoints.apiUrl || endpoints.cleanUrl ? '' : ' (it holds credentials, so the built-in sandbox is not used)';
      throw new UsageError(`no ${key} is configured for profile "${this.profileName}"${why}`, `pass ${flag} URL or run \`mailclean config set ${key} URL\``);
    }
    const [{ HttpClient }, { Agent }] = await Promise.all([import('./api/http.js'), import('undici')]);
    const dispatcher = new Agent({ keepAliveTimeout: 4_000, connections: 16 });
    this.closers.push({ close: () => dispatcher.close() });
    const { value: token } = await this.token(service);
    let current = token;
    const client = new HttpClient({
      baseUrl,
      serviceName: service === 'platform' ? 'platform' : 'cleaning service',
      token: () => current,
      timeoutMs: numberFromEnv(this.env.MAILCLEAN_TIMEOUT_MS) ?? 30_000,
      dispatcher,
      debug: this.debugEnabled ? (line) => this.debug(line) : undefined,
    });
    this.tokenSetters.set(service, (t) => (current = t));
    return client;
  }

  private readonly tokenSetters = new Map<Service, (token: string | undefined) => void>();

  /** After login/register, later requests in the same run use the new token. */
  useToken(service: Service, token: string | undefined): void {
    this.tokenSetters.get(service)?.(token);
  }

  async platform(): Promise<PlatformClient> {
    const { PlatformClient } = await import('./api/platform.js');
    return new PlatformClient(await this.http('platform'));
  }

  async cleaning(): Promise<CleaningClient> {
    const { CleaningClient } = await import('./api/cleaning.js');
    return new CleaningClient(await this.http('clean'));
  }

  async close(): Promise<void> {
    const closers = this.closers.splice(0).reverse();
    for (const c of closers) await c.close().catch(() => undefined);
  }
}

function tokenEnvName(service: Service | 'cdp'): string | undefined {
  return service === 'platform' ? 'MAILCLEAN_TOKEN' : service === 'clean' ? 'MAILCLEAN_CLEAN_TOKEN' : undefined;
}

function validateUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${redactUrl(value)}" is not a valid URL`, 'expected something like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${redactUrl(value)}" is not an http or https URL`);
  }
  return url.href.replace(/\/+$/, '');
}

function numberFromEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}
