import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CleaningClient } from './api/cleaning.js';
import type { HttpClient } from './api/http.js';
import type { PlatformClient } from './api/platform.js';
import { dataDir } from './config/paths.js';
import type { Profile, Service } from './config/profile.js';
import type { Rate } from './config/rate.js';
import { givenUrls } from './config/urls.js';
import { UsageError } from './errors.js';
import type { IO } from './io/io.js';
import { IOStreams, type StreamFlags } from './io/streams.js';
import type { MailcleanClient } from './library/client.js';
import type { Naming } from './library/option-checks.js';

export interface GlobalOptions extends StreamFlags {
  profile?: string;
  apiUrl?: string;
  cleanUrl?: string;
}

export interface Endpoints {
  apiUrl: string;
  cleanUrl: string;
  /** Both point at the built-in sandbox started in this process. */
  sandbox: boolean;
}

/** The flags that change a command's library client. */
export interface ClientFlags {
  shared?: string;
  rate?: Rate;
  concurrency?: number;
}

/** How the library's messages name the CLI's flags. */
export const flagName: Naming = (option) =>
  ({ dnsServers: '--dns-server', outputShort: '-o' })[option as string] ??
  `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

interface Closer {
  close(): Promise<void>;
}

/** What a command needs besides its own options, each piece built on first use (as the GitHub CLI's cmdutil.Factory). */
export class Factory {
  readonly io: IOStreams;
  private profilePromise?: Promise<Profile>;
  private endpointsPromise?: Promise<Endpoints>;
  private readonly closers: Closer[] = [];
  private readonly clients = new Map<Service, Promise<HttpClient>>();
  private readonly tokens = new Map<Service, string | undefined>();
  private readonly libraryClients = new Map<string, Promise<MailcleanClient>>();

  constructor(
    io: IO,
    readonly globals: GlobalOptions,
    /** For commands that describe the others (completion). */
    private readonly tree?: () => Promise<CommandUnknownOpts>,
  ) {
    this.io = new IOStreams(io, globals);
  }

  commandTree(): Promise<CommandUnknownOpts> {
    if (!this.tree) throw new Error('this factory was made without the command tree');
    return this.tree();
  }

  get profileName(): string {
    return this.globals.profile ?? this.io.env.MAILCLEAN_PROFILE ?? 'default';
  }

  get dataDir(): string {
    return dataDir(this.io.env);
  }

  profile(): Promise<Profile> {
    this.profilePromise ??= this.loadProfile();
    return this.profilePromise;
  }

  private async loadProfile(): Promise<Profile> {
    const [{ openProfile }, { SECRET_KEYS }] = await Promise.all([
      import('./library/profile.js'),
      import('./config/tokens.js'),
    ]);
    const profile = await openProfile(this.profileName, {
      env: this.io.env,
      given: givenUrls(this.globals, this.io.env),
      remember: (secret) => this.io.secrets.add(secret),
      warn: (message) => this.io.warn(message),
      note: (message) => this.io.note(message),
    });
    // Tokens in the file are masked from the start; those in the OS credential store once read (never before used).
    const record = profile.credentials();
    const stored = profile.storedTokens();
    for (const key of SECRET_KEYS) if (stored[key] === 'file') this.io.secrets.add(record[key]);
    return profile;
  }

  endpoints(): Promise<Endpoints> {
    this.endpointsPromise ??= this.resolveEndpoints();
    return this.endpointsPromise;
  }

  private async resolveEndpoints(): Promise<Endpoints> {
    const profile = await this.profile();
    const { apiUrl, cleanUrl } = profile.urls();
    if (apiUrl || cleanUrl || !profile.usesSandbox())
      return { apiUrl: apiUrl ?? '', cleanUrl: cleanUrl ?? '', sandbox: false };
    const { startSandbox } = await import('./sandbox/server.js');
    const sandbox = await startSandbox({
      dataDir: join(this.dataDir, 'sandbox'),
      internalToken: this.io.env.MAILCLEAN_INTERNAL_TOKEN,
    });
    this.closers.push(sandbox);
    this.io.note(
      this.io.style.dim(
        'Using the built-in sandbox (no api-url or clean-url configured); see `mailclean sandbox --help`.',
      ),
    );
    return { apiUrl: sandbox.url, cleanUrl: sandbox.url, sandbox: true };
  }

  async platform(): Promise<PlatformClient> {
    const { PlatformClient } = await import('./api/platform.js');
    return new PlatformClient(await this.http('platform'));
  }

  async cleaning(): Promise<CleaningClient> {
    const { CleaningClient } = await import('./api/cleaning.js');
    return new CleaningClient(await this.http('clean'));
  }

  /** The library's client for this profile's cleaning account: the one way to its key and state. */
  client(flags: ClientFlags = {}): Promise<MailcleanClient> {
    return once(this.libraryClients, JSON.stringify(flags), () => this.buildClient(flags));
  }

  private async buildClient(flags: ClientFlags): Promise<MailcleanClient> {
    const [profile, { profileOptions }, { resolveSettings }, { MailcleanClient }, { refusedTokenHint }] =
      await Promise.all([
        this.profile(),
        import('./library/profile.js'),
        import('./library/settings.js'),
        import('./library/client.js'),
        import('./config/profile.js'),
      ]);
    const options = profileOptions(profile, this.io.env, {
      ...flags,
      token: this.tokens.get('clean'),
      dataDir: this.dataDir,
      env: this.io.env,
      debug: this.io.debugEnabled ? (line: string) => this.io.debug(line) : undefined,
    });
    const client = new MailcleanClient(
      resolveSettings(options, flagName, {
        secrets: this.io.secrets,
        authHint: 'run `mailclean login --service clean`, or set MAILCLEAN_CLEAN_TOKEN',
        refusedHint: refusedTokenHint('clean', profile.token('clean').source),
        tokenWithoutService: new UsageError(
          `no clean-url is configured for profile "${this.profileName}", which holds a cleaning token`,
          'pass --clean-url URL or run `mailclean config set clean-url URL` (or --local to check with the built-in engine)',
        ),
        clock: this.io.clock,
      }),
    );
    this.closers.push(client);
    return client;
  }

  /** After login/register, later requests in the same run use the new token. */
  useToken(service: Service, token: string | undefined): void {
    this.io.secrets.add(token);
    this.tokens.set(service, token);
    if (service === 'clean') this.libraryClients.clear();
  }

  private http(service: Service): Promise<HttpClient> {
    return once(this.clients, service, () => this.buildHttp(service));
  }

  private async buildHttp(service: Service): Promise<HttpClient> {
    const endpoints = await this.endpoints();
    const baseUrl = service === 'platform' ? endpoints.apiUrl : endpoints.cleanUrl;
    if (!baseUrl) {
      const [key, flag] = service === 'platform' ? ['api-url', '--api-url'] : ['clean-url', '--clean-url'];
      const why =
        endpoints.apiUrl || endpoints.cleanUrl ? '' : ' (it holds credentials, so the built-in sandbox is not used)';
      throw new UsageError(
        `no ${key} is configured for profile "${this.profileName}"${why}`,
        `pass ${flag} URL or run \`mailclean config set ${key} URL\``,
      );
    }
    const { connect } = await import('./api/connect.js');
    const profile = await this.profile();
    if (!this.tokens.has(service)) this.tokens.set(service, profile.token(service).value);
    const { refusedTokenHint } = await import('./config/profile.js');
    const connection = await connect({
      baseUrl,
      serviceName: service === 'platform' ? 'platform' : 'cleaning service',
      setting: service === 'platform' ? 'api-url' : 'clean-url',
      token: () => this.tokens.get(service),
      refusedHint: refusedTokenHint(service, profile.token(service).source),
      env: this.io.env,
      secrets: this.io.secrets,
      debug: this.io.debugEnabled ? (line) => this.io.debug(line) : undefined,
      inProcess: endpoints.sandbox,
    });
    this.closers.push(connection);
    return connection.http;
  }

  async close(): Promise<void> {
    const closers = this.closers.splice(0).reverse();
    for (const c of closers) await c.close().catch(() => undefined);
  }
}

function once<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  if (!map.has(key)) map.set(key, make());
  return map.get(key)!;
}
