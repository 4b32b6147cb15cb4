// An HTTP client for one service over its own connection pool, as the CLI's factory and the library both open it.
import { connectionPool, describeProxies, proxySettings } from './dispatcher.js';
import { HttpClient, type HttpClientOptions } from './http.js';

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
  /** Closes the pool's sockets. */
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
