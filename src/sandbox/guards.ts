// What the sandbox refuses to serve: requests a web page could make a browser send to it.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { HttpError } from './errors.js';

/**
 * A web page must not drive a sandbox on this machine: a browser names the page's origin on cross-origin requests,
 * and our clients never send one.
 */
export function refuseBrowsers(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`)
    throw new HttpError(403, 'Cross-origin requests from a browser are refused.');
}

/**
 * DNS rebinding: a page whose name resolves to 127.0.0.1 still sends its own Host header. The sandbox answers only
 * to addresses, localhost and the name it was told to bind, which no one else's DNS can claim.
 */
export function refuseOtherNames(req: IncomingMessage, boundHost: string): void {
  const header = req.headers.host;
  if (header === undefined) return;
  const name = header
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  const allowed =
    isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || name === boundHost.toLowerCase();
  if (!allowed)
    throw new HttpError(421, `This sandbox answers only to its own address, not to ${JSON.stringify(header)}.`);
}

export function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}
