// The connection pool, through the proxy the command's environment (not process.env) names.
import type { Dispatcher } from 'undici';
import { redactUrl } from '../redact.js';
import { newAgent, newEnvHttpProxyAgent } from './undici-parts.js';

/** Lower case first, as curl reads them: a user exporting both most likely set the lower-case one last. */
function fromEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return value?.trim() || undefined;
}

/** `proxy.corp:3128` means http://proxy.corp:3128, as curl reads it. */
function proxyUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
}

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

export function proxySettings(env: Record<string, string | undefined>): ProxySettings {
  return {
    httpProxy: proxyUrl(fromEnv(env, 'http_proxy')),
    httpsProxy: proxyUrl(fromEnv(env, 'https_proxy')),
    noProxy: fromEnv(env, 'no_proxy'),
  };
}

/** What --debug says of the proxies in use, credentials hidden; undefined when there are none. */
export function describeProxies(proxies: ProxySettings): string | undefined {
  const parts: string[] = [];
  if (proxies.httpProxy) parts.push(`http via ${redactUrl(proxies.httpProxy)}`);
  if (proxies.httpsProxy) parts.push(`https via ${redactUrl(proxies.httpsProxy)}`);
  if (parts.length === 0) return undefined;
  if (proxies.noProxy) parts.push(`not for ${proxies.noProxy}`);
  return `proxy: ${parts.join('; ')}`;
}

/** A keep-alive pool, through undici's EnvHttpProxyAgent when a proxy is named (empty strings: not process.env's). */
export async function connectionPool(proxies: ProxySettings): Promise<Dispatcher> {
  const pool = { keepAliveTimeout: 4_000, connections: 16 };
  if (!proxies.httpProxy && !proxies.httpsProxy) return newAgent(pool);
  return newEnvHttpProxyAgent({
    ...pool,
    httpProxy: proxies.httpProxy ?? '',
    httpsProxy: proxies.httpsProxy ?? '',
    noProxy: proxies.noProxy ?? '',
  });
}
