// undici's index loads all of undici before a command's first request; a client needs only its Agent and request(), so
// these load just those files of the undici package-lock.json pins (without an "exports" map, its files are public).
import type { Dispatcher } from 'undici';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/** A keep-alive pool; through a proxy, all of undici: its proxy agent calls what undici's index adds to dispatchers. */
export async function connectionPool(proxies: ProxySettings): Promise<Dispatcher> {
  const pool = { keepAliveTimeout: 4_000, connections: 16 };
  if (!proxies.httpProxy && !proxies.httpsProxy) {
    const { default: Agent } = await import('undici/lib/dispatcher/agent.js');
    return new Agent(pool);
  }
  const { EnvHttpProxyAgent } = await import('undici');
  // Empty strings, not undefined: undefined would make undici read process.env instead.
  return new EnvHttpProxyAgent({
    ...pool,
    httpProxy: proxies.httpProxy ?? '',
    httpsProxy: proxies.httpsProxy ?? '',
    noProxy: proxies.noProxy ?? '',
  });
}

type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's request(url, options) with a dispatcher: what its index wraps around the same function. */
export async function request(
  url: URL,
  { dispatcher, ...options }: RequestOptions & { dispatcher?: Dispatcher },
): Promise<Dispatcher.ResponseData> {
  if (dispatcher === undefined) return (await import('undici')).request(url, options);
  const send = await (sendRequest ??= import('undici/lib/api/api-request.js').then((m) => m.default));
  return send.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

/** undici's request function, imported once: each import() of it costs the bundle a CommonJS namespace again. */
let sendRequest: Promise<typeof import('undici/lib/api/api-request.js').default> | undefined;
