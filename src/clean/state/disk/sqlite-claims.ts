// Claims between the runs of one account on this machine, in SQLite, as Redis keeps them between machines. The claims
// of a runner that is gone (its process dead, or silent for LIVENESS_MS) are taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { batches } from '../../../batches.js';
import { ownerIsGone, processSpace } from '../../../lock-files.js';
import type { AddressClaims } from '../account-state.js';
import { type Database, openDatabase } from './sqlite-driver.js';

/** A runner is gone when its row was not refreshed for this long (or its process, in this process's space, is gone). */
const LIVENESS_MS = 15_000;
/** A claim older than this is free whatever its runner says (as the TTL of a claim in Redis). */
const CLAIM_TTL_MS = 24 * 3_600_000;

export class SqliteClaims implements AddressClaims {
  readonly owner = `${processSpace()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private db?: Database;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  private open(): Database {
    if (this.db) return this.db;
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    closeSync(openSync(this.path, 'a', 0o600));
    // No index by owner (an older file's is dropped): the table holds only the claims of runs under way, and
    // `release` reads it faster than the index costs to keep.
    const db = openDatabase(
      this.path,
      'CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;' +
        'DROP INDEX IF EXISTS claims_by_owner;' +
        'CREATE TABLE IF NOT EXISTS runners (owner TEXT PRIMARY KEY, host TEXT NOT NULL, pid INTEGER NOT NULL, beat INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.db = db;
    return db;
  }

  /** Says this runner is alive, now and every few seconds until `release`. */
  async start(): Promise<void> {
    const db = this.open();
    const beat = db.prepare('INSERT OR REPLACE INTO runners (owner, host, pid, beat) VALUES (?, ?, ?, ?)');
    // The host column holds the runner's process space: a pid is only asked about where it means something.
    const refresh = () => beat.run(this.owner, processSpace(), process.pid, this.now());
    refresh();
    this.heartbeat = setInterval(() => {
      try {
        refresh();
      } catch {
        /* the next beat tries again; a runner silent for LIVENESS_MS is taken for gone */
      }
    }, LIVENESS_MS / 3);
    this.heartbeat.unref();
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
      const row = db.prepare('SELECT host, pid, beat FROM runners WHERE owner = ?').get(owner) as
        | { host: string; pid: number; beat: number }
        | undefined;
      alive =
        row !== undefined &&
        now - row.beat < LIVENESS_MS &&
        !ownerIsGone({ pid: row.pid, space: row.host, at: row.beat });
      known.set(owner, alive);
    }
    return alive;
  }

  /** Gives back this runner's claims (the answered ones are in the cache; the rest are free for others). */
  async release(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
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

/** One write transaction, taken at once (BEGIN IMMEDIATE), so that concurrent runs wait rather than fail. */
export function transaction(db: Database, work: () => void): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    work();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
