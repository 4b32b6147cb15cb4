import { isIP } from 'node:net';

/** `--dns-server`, checked here because `Resolver.setServers` aborts the process on a bad port; c-ares takes no names. */
export function parseDnsServers(list: string): { servers: string[] } | { error: string } {
  const servers: string[] = [];
  for (const item of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(item);
    const lastColon = item.lastIndexOf(':');
    // A single colon is IPv4:PORT; more than one is a bare IPv6 address.
    const [host, port] = bracketed
      ? [bracketed[1]!, bracketed[2]]
      : lastColon > 0 && item.indexOf(':') === lastColon
        ? [item.slice(0, lastColon), item.slice(lastColon + 1)]
        : [item, undefined];
    const family = isIP(host);
    if (bracketed ? family !== 6 : family === 0) {
      return {
        error: `"${item}" is not an IP address (expected IP, IP:PORT, IPv6 or [IPv6]:PORT; host names are not looked up)`,
      };
    }
    if (port === undefined) {
      servers.push(host);
      continue;
    }
    const number = /^\d{1,5}$/.test(port) ? Number(port) : 0;
    if (number < 1 || number > 65535) return { error: `"${item}": the port must be a number from 1 to 65535` };
    servers.push(family === 6 ? `[${host}]:${number}` : `${host}:${number}`);
  }
  return servers.length > 0
    ? { servers }
    : { error: 'no server given (expected IP, IP:PORT, IPv6 or [IPv6]:PORT, comma-separated)' };
}
