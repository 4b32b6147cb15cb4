import { join } from 'node:path';
import type { IO } from './io/io.js';
import { PLAIN, COLOR, wantsColor, type Style } from './io/style.js';
import { formatJson, selectFields, type JsonFlag } from './io/json.js';
import { configDir, dataDir } from './config/paths.js';
import type { ProfileData, ProfileScope, ProfileStore } from './config/store.js';
import { UsageError } from './errors.js';
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

  /** Credentials live in the profile, or apart from it when talking to the built-in sandbox. */
  async credentialScope(): Promise<ProfileScope> {
    const { apiUrl, cleanUrl } = await this.configuredUrls();
    return apiUrl || cleanUrl ? 'profiles' : 'sandbox';
  }

  /** True when no endpoint is configured, so commands talk to the built-in sandbox. */
  async usesSandbox(): Promise<boolean> {
    return (await this.credentialScope()) === 'sandbox';
  }

  async credentials(): Promise<ProfileData> {
    return (await this.store()).read(this.profileName, await this.credentialScope());
  }

  async saveCredentials(changes: ProfileData): Promise<void> {
    (await this.store()).update(this.profileName, changes, await this.credentialScope());
  }

  /** The bearer token for a service and where it came from. */
  async token(service: Service | 'cdp'): Promise<{ value?: string; source?: 'env' | 'profile' }> {
    const envName = service === 'platform' ? 'MAILCLEAN_TOKEN' : service === 'clean' ? 'MAILCLEAN_CLEAN_TOKEN' : undefined;
    if (envName && this.env[envName]) return { value: this.env[envName], source: 'env' };
    const key = service === 'platform' ? 'token' : service === 'clean' ? 'clean-token' : 'cdp-token';
    const stored = (await this.credentials())[key];
    return stored ? { value: stored, source: 'profile' } : {};
  }

  // ---- endpoints ----

  endpoints(): Promise<Endpoints> {
    this.endpointsPromise ??= this.resolveEndpoints();
    return this.endpointsPromise;
  }

  /** What names the cleaning service across runs, without starting the sandbox to find out. */
  async cleanIdentity(): Promise<string | undefined> {
    const { apiUrl, cleanUrl } = await this.configuredUrls();
    if (cleanUrl) return cleanUrl;
    return apiUrl ? undefined : `sandbox:${join(this.dataDir, 'sandbox')}`;
  }

  private async configuredUrls(): Promise<{ apiUrl?: string; cleanUrl?: string }> {
    const settings = await this.settings();
    const pick = (flag: string | undefined, flagName: string, envName: string, key: string) => {
      if (flag !== undefined) return validateUrl(flag, flagName);
      if (this.env[envName]) return validateUrl(this.env[envName]!, envName);
      const stored = settings[key];
      if (stored) return validateUrl(stored, `${key} in profile "${this.profileName}"`);
      return undefined;
    };
    const apiUrl = pick(this.globals.apiUrl, '--api-url', 'MAILCLEAN_API_URL', 'api-url');
    const cleanUrl = pick(this.globals.cleanUrl, '--clean-url', 'MAILCLEAN_CLEAN_URL', 'clean-url');
    return { apiUrl, cleanUrl };
  }

  private async resolveEndpoints(): Promise<Endpoints> {
    const { apiUrl, cleanUrl } = await this.configuredUrls();
    if (apiUrl || cleanUrl) {
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
      throw new UsageError(`no ${key} is configured for profile "${this.profileName}"`, `pass ${flag} URL or run \`mailclean config set ${key} URL\``);
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

function validateUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${source}: "${value}" is not a valid URL`, 'expected something like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${value}" is not an http or https URL`);
  }
  return url.href.replace(/\/+$/, '');
}

function numberFromEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}
