// The account directory in the data directory: one small file per identity hash, holding its account key. A file
// is created exclusively, so two runs that meet a new identity at once agree on the first one's account.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountDirectory } from '../account-state.js';

export class DiskAccountDirectory implements AccountDirectory {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'accounts');
  }

  async find(identities: readonly string[]): Promise<string | undefined> {
    for (const identity of identities) {
      try {
        const account = readFileSync(join(this.dir, identity), 'utf8').trim();
        if (account) return account;
      } catch {
        /* not seen here */
      }
    }
    return undefined;
  }

  async remember(identities: readonly string[], account: string): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    for (const identity of identities) {
      let fd: number;
      try {
        fd = openSync(join(this.dir, identity), 'wx', 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      try {
        writeSync(fd, `${account}\n`);
      } finally {
        closeSync(fd);
      }
    }
  }
}
