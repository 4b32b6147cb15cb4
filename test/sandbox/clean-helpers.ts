import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { call, PASSWORD, type Reply, uniqueEmail } from './helpers.js';

export const CLEAN = '/api/v1/email-verify/validate/clean';

export async function signupClean(base: string): Promise<{ token: string; userId: string }> {
  const up = await call(base, 'POST', '/api/v1/auth/signup', {
    body: { email: uniqueEmail('cleaner'), password: PASSWORD },
  });
  if (up.status !== 201) throw new Error(`signup failed: ${up.status} ${JSON.stringify(up.json)}`);
  return { token: up.json.result.token, userId: up.json.result.user._id };
}

export function cleanCall(base: string, token: string, email: unknown): Promise<Reply> {
  return call(base, 'POST', CLEAN, { token, body: { email } });
}

/** `n` distinct valid addresses. */
export function addresses(n: number, tag = 'a'): string[] {
  return Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`);
}

export type RawReply =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; text: string; complete: boolean }
  | { kind: 'error'; code: string };

/**
 * One request on a fresh connection with node:http, which hands over whatever arrived: a cut
 * body shows as `complete: false` with the bytes received, a reset as a socket error code.
 */
export function rawPost(base: string, path: string, token: string, body: unknown): Promise<RawReply> {
  const url = new URL(base + path);
  const data = JSON.stringify(body);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (reply: RawReply): void => {
      if (!settled) {
        settled = true;
        resolve(reply);
      }
    };
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const finish = (): void =>
          settle({
            kind: 'response',
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            complete: res.complete,
          });
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', finish);
        res.on('close', finish);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => settle({ kind: 'error', code: err.code ?? err.message }));
    req.end(data);
  });
}
