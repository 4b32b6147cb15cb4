// An HTTP client for one service over its own connection pool, as the CLI's factory and the library both open it.
import type { SecretSet } from '../secrets.js';
import { connectionPool, describeProxies, proxySettings } from './dispatcher.js';
import { HttpClient } from './http.js';

export interface ConnectOptions {
  baseUrl: string;
  /** What users call the service in messages: "platform", "cleaning service". */
  serviceName: string;
  /** The setting that names `baseUrl` (`api-url`, `clean-url`), for messages that say what to fix. */
  setting: string;
  token: () => string | undefined;
  /** What to do when the service refuses the token, naming where it came from. */
  refusedHint?: string;
  /** Proxies (HTTPS_PROXY, NO_PROXY …) and MAILCLEAN_TIMEOUT_MS are read here, never from process.env itself. */
  env: Record<string, string | undefined>;
  secrets?: SecretSet;
  debug?: (line: string) => void;
  /** The server runs in this process (the built-in sandbox): a proxy elsewhere could never reach it. */
  inProcess?: boolean;
}

export interface Connection {
  http: HttpClient;
  /** Closes the pool's sockets. */
  close(): Promise<void>;
}

export async function connect(o: ConnectOptions): Promise<Connection> {
  const proxies = o.inProcess ? {} : proxySettings(o.env);
  const proxyNote = describeProxies(proxies);
  if (proxyNote) o.debug?.(proxyNote);
  const dispatcher = await connectionPool(proxies);
  const http = new HttpClient({
    baseUrl: o.baseUrl,
    serviceName: o.serviceName,
    setting: o.setting,
    token: o.token,
    refusedHint: o.refusedHint,
    timeoutMs: positiveNumber(o.env.MAILCLEAN_TIMEOUT_MS) ?? 30_000,
    dispatcher,
    secrets: o.secrets,
    proxies: [proxies.httpProxy, proxies.httpsProxy].filter((p): p is string => p !== undefined),
    debug: o.debug,
  });
  return { http, close: () => dispatcher.close() };
}

function positiveNumber(value: string | undefined): number | undefined {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : undefined;
}
