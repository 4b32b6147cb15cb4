// The verdict cache on one machine: SQLite (Node's own node:sqlite) in the data directory, one file per account
// and service. WAL mode: a run killed during a write loses at most the answers not yet committed, never the file.
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { batches, KEY_BATCH } from '../../../batches.js';
import { documentedStatus } from '../../verdict/service-words.js';
import type { Verdict } from '../../verdict/verdict.js';
import type { CacheStats, KeySet, VerdictCache } from '../verdict-cache.js';
import { type Database, openDatabase, type Statement } from './sqlite-driver.js';

/** A full pass reads this many addresses at a time. */
const SCAN_PAGE = 200_000;

// valid, disposable and validDomain in two bits each: 0 unknown (null), 1 false, 2 true.
const packFlag = (b: boolean | null, shift: number) => (b === null ? 0 : b ? 2 : 1) << shift;
const unpackFlag = (flags: number, shift: number): boolean | null => {
  const v = (flags >> shift) & 3;
  return v === 0 ? null : v === 2;
};

interface Row {
  key: string;
  status: string;
  flags: number;
  reason: string;
  at: number;
}

export class SqliteVerdictCache implements VerdictCache {
  private readonly db: Database;
  private readonly insert: Statement;
  private readonly batchLookup: Statement;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // The answers are the account's: the file is created private (SQLite gives its -wal and -shm the same mode).
    closeSync(openSync(path, 'a', 0o600));
    this.db = openDatabase(path);
    // Compact rows: the address is the key; times as integers; flags packed.
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, status TEXT NOT NULL, flags INTEGER NOT NULL, reason TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.insert = this.db.prepare(
      'INSERT OR REPLACE INTO verdicts (key, status, flags, reason, at) VALUES (?, ?, ?, ?, ?)',
    );
    this.batchLookup = this.lookupStatement(KEY_BATCH);
  }

  private lookupStatement(n: number): Statement {
    return this.db.prepare(
      `SELECT key, status, flags, reason, at FROM verdicts WHERE at >= ? AND key IN (${Array(n).fill('?').join(',')})`,
    );
  }

  async lookup(keys: Iterable<string>, since: number): Promise<Map<string, Verdict>> {
    const found = new Map<string, Verdict>();
    await this.lookupEach(keys, since, (key, verdict) => found.set(key, verdict));
    return found;
  }

  async lookupEach(
    keys: Iterable<string>,
    since: number,
    found: (key: string, verdict: Verdict) => void,
  ): Promise<number> {
    // Answers of one batch share their time and usually their verdict: one object for each distinct one.
    const shared = new Map<string, Verdict>();
    let count = 0;
    for (const batch of batches(keys)) {
      const statement = batch.length === KEY_BATCH ? this.batchLookup : this.lookupStatement(batch.length);
      for (const row of statement.all(since, ...batch) as unknown as Row[]) {
        const id = `${row.status}|${row.flags}|${row.reason}|${row.at}`;
        let verdict = shared.get(id);
        if (!verdict) shared.set(id, (verdict = this.verdictOf(row)));
        found(row.key, verdict);
        count++;
      }
    }
    return count;
  }

  async count(keys: KeySet, since: number, found: (key: string) => void = () => {}): Promise<number> {
    const total = (this.db.prepare('SELECT count(*) AS n FROM verdicts').get() as { n: number } | undefined)?.n ?? 0;
    // A statement per batch costs about three times a row read in a full pass: read everything when asking
    // about more than a third of it.
    if (keys.size * 3 < total) return await this.lookupEach(keys, since, found);
    let count = 0;
    for (const page of this.freshKeys(since)) {
      for (const key of page) {
        if (!keys.has(key)) continue;
        count++;
        found(key);
      }
    }
    return count;
  }

  /** Every address answered since `since`, in pages (one string per page, split here), so memory stays bounded. */
  private *freshKeys(since: number): Generator<string[]> {
    const page = this.db.prepare(
      'SELECT group_concat(key, char(10)) AS keys FROM (SELECT key FROM verdicts WHERE key > ? AND at >= ? ORDER BY key LIMIT ?)',
    );
    let after = '';
    for (;;) {
      const text = (page.get(after, since, SCAN_PAGE) as { keys: string | null } | undefined)?.keys;
      if (!text) return;
      const keys = text.split('\n');
      yield keys;
      if (keys.length < SCAN_PAGE) return;
      after = keys[keys.length - 1]!;
    }
  }

  /** The cache keeps the service's own word; the verdict says it in mailclean's. */
  private verdictOf(row: Row): Verdict {
    const valid = unpackFlag(row.flags, 0);
    return {
      key: '',
      status: documentedStatus(row.status, valid),
      serviceStatus: row.status,
      valid,
      disposable: unpackFlag(row.flags, 2),
      validDomain: unpackFlag(row.flags, 4),
      reason: row.reason,
      checkedAt: new Date(row.at).toISOString(),
    };
  }

  async store(verdicts: readonly Verdict[]): Promise<void> {
    const now = Date.now();
    // Taken at once: a deferred transaction that must upgrade to write fails at once when another run writes.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const v of verdicts) {
        const at = Date.parse(v.checkedAt);
        this.insert.run(
          v.key,
          v.serviceStatus ?? v.status,
          packFlag(v.valid, 0) | packFlag(v.disposable, 2) | packFlag(v.validDomain, 4),
          v.reason,
          Number.isFinite(at) ? at : now,
        );
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async stats(): Promise<CacheStats> {
    const row = this.db
      .prepare('SELECT count(*) AS entries, min(at) AS oldest, max(at) AS newest FROM verdicts')
      .get() as unknown as { entries: number; oldest: number | null; newest: number | null };
    this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    let bytes = 0;
    for (const suffix of ['', '-wal']) {
      try {
        bytes += statSync(`${this.path}${suffix}`).size;
      } catch {
        /* no WAL right now */
      }
    }
    const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return { entries: row.entries, oldest: iso(row.oldest), newest: iso(row.newest), bytes };
  }

  async clear(before?: number): Promise<number> {
    const result =
      before === undefined
        ? this.db.prepare('DELETE FROM verdicts').run()
        : this.db.prepare('DELETE FROM verdicts WHERE at < ?').run(before);
    this.db.exec('VACUUM');
    return Number(result.changes);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
