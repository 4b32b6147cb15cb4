// When the cleaning service last took a token, for `auth status` (the service's only check costs a rate-limit slot).
// Kept in the data directory under a hash of the service's URL and the token, never the token.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';

const fileOf = (dataDir: string, url: string, token: string) =>
  join(dataDir, 'tokens', createHash('sha256').update(`${url}\n${token}`).digest('hex').slice(0, 32));

export function markTokenAccepted(dataDir: string, url: string, token: string, now: number): void {
  try {
    // Not flushed: it is written at a run's first answer, where fsyncs held up the first window's requests.
    writeFileAtomic(fileOf(dataDir, url, token), `${new Date(now).toISOString()}\n`, 0o600, { durable: false });
  } catch {
    /* a mark is a courtesy for `auth status`: never worth failing a command */
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
