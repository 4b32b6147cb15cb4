import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/server.js';
import { call, PASSWORD, sandbox, uniqueEmail, type Reply } from './helpers.js';

export const CLEAN = '/api/v1/email-verify/validate/clean';

/** A clock tests move by hand. */
export class Clock {
  constructor(public t: number) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
  set(iso: string): void {
    this.t = Date.parse(iso);
  }
}

export async function signupClean(base: string): Promise<{ token: string; userId: string }> {
  const up = await call(base, 'POST', '/api/v1/auth/signup', { body: { email: uniqueEmail('cleaner'), password: PASSWORD } });
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

/**
 * Sandboxes started by a test and a fresh data directory (`dataDir()`), both gone after each test. Call at
 * the top of a test file.
 */
export function useSandboxes(prefix: string) {
  const open: SandboxHandle[] = [];
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await rm(root, { recursive: true, force: true });
  });
  return {
    dataDir: (): string => join(root, 'data'),
    async start(opts: SandboxOptions = {}): Promise<SandboxHandle> {
      const h = await sandbox(opts);
      open.push(h);
      return h;
    },
    async stop(h: SandboxHandle): Promise<void> {
      open.splice(open.indexOf(h), 1);
      await h.close();
    },
  };
}
