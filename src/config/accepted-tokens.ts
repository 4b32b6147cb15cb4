// When the cleaning service last took a token: it issued it (sign-in, sign-up), or answered a request made with it.
// `auth status` shows this instead of asking the service, whose only way to check a token uses a request of the
// rate limit. Kept in the data directory by a hash of the service's URL and the token, never the token.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';

const fileOf = (dataDir: string, url: string, token: string) =>
  join(dataDir, 'tokens', createHash('sha256').update(`${url}\n${token}`).digest('hex').slice(0, 32));

export function markTokenAccepted(dataDir: string, url: string, token: string, now: number): void {
  try {
    mkdirSync(join(dataDir, 'tokens'), { recursive: true, mode: 0o700 });
    // Not flushed to disk: it is written at a run's first answer, and two fsyncs there held up that window's
    // requests (each later window repeats the first one's spread). A power cut may lose it (`auth status` then shows an older time).
    writeFileAtomic(fileOf(dataDir, url, token), `${new Date(now).toISOString()}\n`, 0o600, { durable: false });
  } catch {
    /* a mark is a courtesy for `auth status`: never worth failing a run */
  }
}

/** When the service last took this token (ISO 8601), if this machine saw it. */
export function tokenAcceptedAt(dataDir: string, url: string, token: string): string | undefined {
  try {
    return readFileSync(fileOf(dataDir, url, token), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
