// An HTTP client for one service over its own connection pool, through the proxies the command's environment names.
import { redactUrl } from '../redact.js';
import { HttpClient, type HttpClientOptions } from './http.js';
import { connectionPool, type ProxySettings } from './undici-parts.js';

export type ConnectOptions = Pick<
  HttpClientOptions,
  'baseUrl' | 'serviceName' | 'setting' | 'token' | 'refusedHint' | 'secrets' | 'debug'
> & {
  /** Proxies (HTTPS_PROXY, NO_PROXY …) and MAILCLEAN_TIMEOUT_MS are read here, never from process.env itself. */
  env: Record<string, string | undefined>;
  /** The server runs in this process (the built-in sandbox): a proxy elsewhere could never reach it. */
  inProcess?: boolean;
};

export interface Connection {
  http: HttpClient;
  close(): Promise<void>;
}

export async function connect({ env, inProcess, ...client }: ConnectOptions): Promise<Connection> {
  const proxies = inProcess ? {} : proxySettings(env);
  const proxyNote = describeProxies(proxies);
  if (proxyNote) client.debug?.(proxyNote);
  const dispatcher = await connectionPool(proxies);
  const http = new HttpClient({
    ...client,
    timeoutMs: positiveNumber(env.MAILCLEAN_TIMEOUT_MS) ?? 30_000,
    dispatcher,
    proxies: [proxies.httpProxy, proxies.httpsProxy].filter((p): p is string => p !== undefined),
  });
  return { http, close: () => dispatcher.close() };
}

function positiveNumber(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** Read as curl reads them: lower case first (set last, most likely), and `proxy.corp:3128` as http://proxy.corp:3128. */
function proxySettings(env: Record<string, string | undefined>): ProxySettings {
  const read = (name: string) => (env[name] ?? env[name.toUpperCase()])?.trim() || undefined;
  return {
    httpProxy: proxyUrl(read('http_proxy')),
    httpsProxy: proxyUrl(read('https_proxy')),
    noProxy: read('no_proxy'),
  };
}

function proxyUrl(value: string | undefined): string | undefined {
  return value === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

/** What --debug says of the proxies in use, credentials hidden; undefined when there are none. */
function describeProxies(proxies: ProxySettings): string | undefined {
  const parts: string[] = [];
  if (proxies.httpProxy) parts.push(`http via ${redactUrl(proxies.httpProxy)}`);
  if (proxies.httpsProxy) parts.push(`https via ${redactUrl(proxies.httpsProxy)}`);
  if (parts.length === 0) return undefined;
  if (proxies.noProxy) parts.push(`not for ${proxies.noProxy}`);
  return `proxy: ${parts.join('; ')}`;
}
