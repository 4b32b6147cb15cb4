// Claims between the runs of one account on this machine, in SQLite, as Redis keeps them between machines.
import { batches } from '../../../batches.js';
import { processSpace } from '../../../lock-files.js';
import type { AddressClaims } from '../account-state.js';
import { CLAIM_TTL_MS, LIVENESS_MS, newOwner, processOfOwnerGone, startHeartbeat } from '../claim-owner.js';
import { type Database, openDatabase, transaction } from './sqlite-driver.js';

export class SqliteClaims implements AddressClaims {
  readonly owner = newOwner();
  private db?: Database;
  private stopHeartbeat?: () => void;

  constructor(
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  private open(): Database {
    if (this.db) return this.db;
    // No index by owner: the table holds only the claims of runs under way, and `release` reads it faster than the
    // index costs to keep.
    const db = openDatabase(
      this.path,
      'CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;' +
        'CREATE TABLE IF NOT EXISTS runners (owner TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, beat INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.db = db;
    return db;
  }

  async start(): Promise<void> {
    const beat = this.open().prepare('INSERT OR REPLACE INTO runners (owner, host, pid, beat) VALUES (?, ?, ?, ?)');
    // The host column holds the runner's process space, as the owner's id does.
    this.stopHeartbeat = await startHeartbeat(() => beat.run(this.owner, processSpace(), process.pid, this.now()));
  }

  async claim(addresses: string[]): Promise<{ mine: string[]; theirs: string[] }> {
    const db = this.open();
    const insert = db.prepare('INSERT OR IGNORE INTO claims (key, owner, at) VALUES (?, ?, ?)');
    const mine: string[] = [];
    const theirs: string[] = [];
    for (const batch of batches(addresses)) {
      transaction(db, () => {
        const at = this.now();
        for (const address of batch) {
          if (Number(insert.run(address, this.owner, at).changes) === 1) mine.push(address);
          else theirs.push(address);
        }
      });
    }
    return { mine, theirs };
  }

  async takeOverFromGone(addresses: string[]): Promise<string[]> {
    const db = this.open();
    const ownerOf = db.prepare('SELECT owner, at FROM claims WHERE key = ?');
    const takeOver = db.prepare('UPDATE claims SET owner = ?, at = ? WHERE key = ? AND owner = ?');
    const insert = db.prepare('INSERT OR IGNORE INTO claims (key, owner, at) VALUES (?, ?, ?)');
    const alive = new Map<string, boolean>();
    const taken: string[] = [];
    for (const batch of batches(addresses)) {
      transaction(db, () => {
        const now = this.now();
        for (const address of batch) {
          const claim = ownerOf.get(address) as { owner: string; at: number } | undefined;
          if (!claim) {
            if (Number(insert.run(address, this.owner, now).changes) === 1) taken.push(address);
            continue;
          }
          if (claim.owner === this.owner) continue;
          if (now - claim.at < CLAIM_TTL_MS && this.isAlive(db, claim.owner, alive, now)) continue;
          if (Number(takeOver.run(this.owner, now, address, claim.owner).changes) === 1) taken.push(address);
        }
      });
    }
    return taken;
  }

  private isAlive(db: Database, owner: string, known: Map<string, boolean>, now: number): boolean {
    let alive = known.get(owner);
    if (alive === undefined) {
      const row = db.prepare('SELECT beat FROM runners WHERE owner = ?').get(owner) as { beat: number } | undefined;
      alive = row !== undefined && now - row.beat < LIVENESS_MS && !processOfOwnerGone(owner);
      known.set(owner, alive);
    }
    return alive;
  }

  /** Gives back this runner's claims (the answered ones are in the cache; the rest are free for others). */
  async release(): Promise<void> {
    this.stopHeartbeat?.();
    this.stopHeartbeat = undefined;
    const db = this.db;
    if (!db) return;
    try {
      transaction(db, () => {
        db.prepare('DELETE FROM claims WHERE owner = ?').run(this.owner);
        db.prepare('DELETE FROM runners WHERE owner = ?').run(this.owner);
      });
    } catch {
      /* left behind, they are taken over once this process is gone */
    } finally {
      db.close();
      this.db = undefined;
    }
  }
}
