// What the sandbox refuses to serve: requests a web page could make a browser send to it.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { HttpError } from './errors.js';

/**
 * A web page must not drive a sandbox running on this machine: a browser names the page's origin on
 * cross-origin requests, and our clients never send one. (A simple text/plain POST needs no preflight, so
 * the JSON content type is required too.)
 */
export function refuseBrowsers(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) {
    throw new HttpError(403, 'Cross-origin requests from a browser are refused.');
  }
}

/**
 * DNS rebinding: a page on evil.example whose name is made to resolve to 127.0.0.1 reaches this server as a
 * "same-origin" request, but its Host header still says evil.example. The sandbox answers only to addresses and
 * to localhost (or the name it was told to bind), which no one else's DNS can claim.
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
