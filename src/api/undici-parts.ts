// undici's index loads all of undici before a command's first request; a client needs only its Agent and request(), so
// these load just those files of the undici package-lock.json pins (without an "exports" map, its files are public).
import type { Dispatcher } from 'undici';

type AgentOptions = ConstructorParameters<typeof import('undici').Agent>[0];
type ProxyAgentOptions = ConstructorParameters<typeof import('undici').EnvHttpProxyAgent>[0];

export async function newAgent(options: AgentOptions): Promise<Dispatcher> {
  const { default: Agent } = await import('undici/lib/dispatcher/agent.js');
  return new Agent(options);
}

/** Through a proxy, all of undici: its proxy agent calls the methods undici's index adds to every dispatcher. */
export async function newEnvHttpProxyAgent(options: ProxyAgentOptions): Promise<Dispatcher> {
  const { EnvHttpProxyAgent } = await import('undici');
  return new EnvHttpProxyAgent(options);
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
